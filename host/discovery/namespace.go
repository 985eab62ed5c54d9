package discovery

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/relavium/relavium/engine"
)

// NamespacedName is the session-wide name of a server's tool.
func NamespacedName(server, tool string) string { return "mcp_" + server + "_" + tool }

// Namespace names every admitted tool of a session mcp_{server}_{tool} and
// runs the collision check on those FINAL names, across all catalogues.
// Names are compared case-insensitively: a person, a model and several
// provider and JSON layers do not reliably tell mcp_gh_Search from
// mcp_gh_search, so such a pair is a collision too. Every tool of a
// colliding group is moved to its catalogue's Skipped (name_collision) —
// none silently shadows another. (Servers "a_b" + tool "c" and server "a"
// + tool "b_c" collide on mcp_a_b_c.) No namespaced name can equal the
// built-in mcp_call: it always has a non-empty server and tool.
//
// Namespace starts from what Discover admitted each time, so it may be run
// again over a new set of catalogues (a server reconnected or left): a
// tool skipped for a collision that no longer exists is admitted again.
// It returns the admitted tools of all catalogues, in catalogue order.
func Namespace(cats []*Catalogue) []*Tool {
	groups := map[string][]*Tool{}
	for _, c := range cats {
		if c.discovered != nil || c.discoveredSkipped != nil {
			c.Tools = slices.Clone(c.discovered)
			c.Skipped = slices.Clone(c.discoveredSkipped)
			c.PayloadBytes = c.discoveredBytes
		}
		for _, t := range c.Tools {
			t.Def.Name = NamespacedName(t.Def.Server, t.Def.Tool)
			k := strings.ToLower(t.Def.Name)
			groups[k] = append(groups[k], t)
		}
	}
	var out []*Tool
	for _, c := range cats {
		kept := c.Tools[:0]
		var collided []engine.SkippedTool
		for _, t := range c.Tools {
			g := groups[strings.ToLower(t.Def.Name)]
			if len(g) == 1 {
				kept = append(kept, t)
				continue
			}
			c.PayloadBytes -= t.Size
			collided = append(collided, engine.SkippedTool{
				Server: c.Server, Tool: t.Def.Tool, Code: ReasonNameCollision,
				Detail: fmt.Sprintf("%s collides with %s; no colliding tool is admitted", t.Def.Name, others(g, t)),
			})
		}
		c.Tools = kept
		if len(collided) > 0 {
			// Refused tools come before the pseudo rows (Tool "*").
			at := len(c.Skipped)
			for at > 0 && isPseudo(c.Skipped[at-1]) {
				at--
			}
			c.Skipped = slices.Insert(c.Skipped, at, collided...)
		}
		out = append(out, kept...)
	}
	return out
}

func others(g []*Tool, self *Tool) string {
	var names []string
	for _, t := range g {
		if t != self {
			names = append(names, fmt.Sprintf("%s (server %s, tool %s)", t.Def.Name, t.Def.Server, t.Def.Tool))
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// isPseudo reports whether a row is a summary (paging_stopped,
// skipped_list_truncated) rather than one refused tool.
func isPseudo(sk engine.SkippedTool) bool {
	return sk.Tool == "*" && (sk.Code == ReasonPagingStopped || sk.Code == ReasonSkippedListTruncate)
}
