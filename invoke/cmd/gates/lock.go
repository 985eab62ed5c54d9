package gates

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/relavium/relavium/gates/lock"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/invoke/cmd/mcp"
)

// LockWritten is the data of `relavium mcp lock`.
type LockWritten struct {
	Path    string        `json:"path"`
	Servers []LockedCount `json:"servers"`
}

// LockedCount is what one server's entry holds.
type LockedCount struct {
	Server    string `json:"server"`
	Protocol  string `json:"protocol"`
	Tools     int    `json:"tools"`
	Skipped   int    `json:"skipped_tools"`
	Prompts   int    `json:"prompts"`
	Resources int    `json:"resources"`
	Templates int    `json:"resource_templates"`
}

// WriteHuman says where the lock went and what it holds.
func (l *LockWritten) WriteHuman(w io.Writer) error {
	fmt.Fprintf(w, "wrote %s\n", l.Path)
	for _, s := range l.Servers {
		fmt.Fprintf(w, "  %s (%s): %d tools, %d skipped, %d prompts, %d resources, %d templates\n",
			s.Server, s.Protocol, s.Tools, s.Skipped, s.Prompts, s.Resources, s.Templates)
	}
	return nil
}

// lockPath is --file, else the project's .relavium/mcp-lock.json.
func lockPath(inv *cli.Invocation) string {
	if p := inv.String("file"); p != "" {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(inv.Global.Project, p)
	}
	return filepath.Join(inv.Global.Project, lock.FileName)
}

// RunMCPLock is `relavium mcp lock`: write .relavium/mcp-lock.json: every
// declared server's definitions, canonical and digested.
func RunMCPLock(ctx context.Context, inv *cli.Invocation) (any, error) {
	live, err := liveLock(ctx, inv)
	if err != nil {
		return nil, err
	}
	path := lockPath(inv)
	if err := lock.Write(path, live); err != nil {
		return nil, err
	}
	out := &LockWritten{Path: path, Servers: []LockedCount{}}
	for _, s := range live.Servers {
		out.Servers = append(out.Servers, LockedCount{Server: s.Name, Protocol: s.Protocol, Tools: len(s.Tools), Skipped: len(s.Skipped),
			Prompts: len(s.Prompts), Resources: len(s.Resources), Templates: len(s.Templates)})
	}
	return out, nil
}

// liveLock connects the declared servers and builds the lock of what they
// offer now.
func liveLock(ctx context.Context, inv *cli.Invocation) (*lock.File, error) {
	servers, _, err := mcp.Targets(inv)
	if err != nil {
		return nil, err
	}
	if len(servers) == 0 {
		return lock.Build(nil), nil
	}
	h, err := cli.ConnectWith(ctx, inv, servers, nil, cli.ConnectOptions{WorkbenchCapabilities: true})
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return snapshotLock(ctx, h)
}

// snapshotLock reads every connected server's definitions, prompts,
// resources and templates off h.
func snapshotLock(ctx context.Context, h *host.Host) (*lock.File, error) {
	f, _, err := snapshotWith(ctx, h, false)
	return f, err
}

// snapshotWith reads the lock of h's servers. lenient (a replayed
// recording) takes a listing the recording holds no answer for as not
// recorded: unrecorded names "server listing" for each.
func snapshotWith(ctx context.Context, h *host.Host, lenient bool) (*lock.File, map[string]bool, error) {
	var snaps []lock.Snapshot
	unrecorded := map[string]bool{}
	for _, st := range h.Servers() {
		if _, ok := h.Definitions(st.Name); !ok {
			continue
		}
		prompts, err := h.Prompts(ctx, st.Name)
		if err != nil && lenient {
			unrecorded[st.Name+" prompts"], err = true, nil
		}
		if err != nil {
			return nil, nil, err
		}
		res, err := h.Resources(ctx, st.Name)
		if err != nil && lenient {
			unrecorded[st.Name+" resources"], err = true, nil
		}
		if err != nil {
			return nil, nil, err
		}
		// The definitions last: they carry the lists refused while reading.
		defs, ok := h.Definitions(st.Name)
		if !ok {
			continue
		}
		if lenient {
			// A replay answers a list it holds no recording of "method not
			// found" (E951), which the host takes as not offered: here it
			// is a listing the recording never made.
			for _, m := range defs.NotOffered {
				switch m {
				case "prompts/list":
					unrecorded[st.Name+" prompts"] = true
				case "resources/list", "resources/templates/list":
					unrecorded[st.Name+" resources"] = true
				}
			}
		}
		snap := lock.Snapshot{Defs: defs, Prompts: prompts, Resources: res}
		if err := snap.Redact(h); err != nil { // a value of the session is never locked
			return nil, nil, err
		}
		snaps = append(snaps, snap)
	}
	return lock.Build(snaps), unrecorded, nil
}

// CheckResult is the data of a `relavium mcp check` that found no drift.
type CheckResult struct {
	*lock.Diff
	format string
}

// WriteHuman prints the (empty) diff.
func (c *CheckResult) WriteHuman(w io.Writer) error {
	if c.format == "github" {
		return c.Diff.WriteGitHub(w)
	}
	return c.Diff.WriteHuman(w)
}

// RunMCPCheck is `relavium mcp check`: compare the live servers with the
// lock; exit 1 with the diff when they differ.
func RunMCPCheck(ctx context.Context, inv *cli.Invocation) (any, error) {
	against, baseline, err := checkBaseline(ctx, inv)
	if err != nil {
		return nil, err
	}
	live, err := liveLock(ctx, inv)
	if err != nil {
		return nil, err
	}
	var notes []string
	if inv.String("against") != "" {
		notes = adoptRecorded(baseline, live)
	}
	d := lock.Compare(against, baseline, live)
	d.Notes = append(d.Notes, notes...)
	if d.Empty() {
		return &CheckResult{Diff: d, format: inv.String("format")}, nil
	}
	if !inv.Global.JSON {
		// The diff is the command's output: stdout, in the asked format;
		// stderr gets the one-line error.
		res := &CheckResult{Diff: d, format: inv.String("format")}
		if err := res.WriteHuman(inv.Env.Stdout); err != nil {
			return nil, err
		}
	}
	return nil, lock.DriftError(d)
}

// checkBaseline is what check compares with: the lock file, or with
// --against the servers a recording holds.
func checkBaseline(ctx context.Context, inv *cli.Invocation) (string, *lock.File, error) {
	if inv.String("against") != "" {
		return recordingBaseline(ctx, inv, inv.String("against"))
	}
	path := lockPath(inv)
	f, err := lock.Read(path)
	shown := path
	if rel, rerr := filepath.Rel(inv.Global.Project, path); rerr == nil && filepath.IsLocal(rel) {
		shown = filepath.ToSlash(rel)
	}
	return shown, f, err
}

// adoptRecorded gives each recorded server the live one's identity (a
// recording holds definitions, not how the server was reached), and
// leaves out of the comparison the listings the recording never made.
func adoptRecorded(recorded, live *lock.File) []string {
	var notes []string
	for i := range recorded.Servers {
		r := &recorded.Servers[i]
		for j := range live.Servers {
			l := &live.Servers[j]
			if l.Name != r.Name {
				continue
			}
			r.Transport, r.Digest, r.URL = l.Transport, l.Digest, l.URL
			if r.Prompts == nil {
				l.Prompts = nil
				notes = append(notes, "server "+r.Name+": the recording holds no prompts/list; prompts are not compared")
			}
			if r.Resources == nil {
				l.Resources, l.Templates = nil, nil
				notes = append(notes, "server "+r.Name+": the recording holds no resources/list; resources and templates are not compared")
			}
		}
	}
	return notes
}
