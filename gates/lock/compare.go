package lock

import (
	"bytes"
	"encoding/json"

	"github.com/relavium/relavium/host/discovery"
)

// Diff is how live servers differ from a lock (or a recording).
type Diff struct {
	// Against names what was compared with: the lock's path or the
	// recording's.
	Against string       `json:"against"`
	Servers []ServerDiff `json:"servers"`
	// Notes are differences that do not fail the check (a consent digest
	// names this machine's resolved paths, so it differs between machines).
	Notes []string `json:"notes,omitempty"`
}

// Empty reports whether nothing differs.
func (d *Diff) Empty() bool { return len(d.Servers) == 0 }

// ServerDiff is one server's differences. Change is "added" (live, not
// locked), "removed" (locked, not live) or "changed".
type ServerDiff struct {
	Server       string                  `json:"server"`
	Change       string                  `json:"change"`
	Identity     []ValueChange           `json:"identity,omitempty"`
	Protocol     *ValueChange            `json:"protocol,omitempty"`
	Capabilities []discovery.FieldChange `json:"capabilities,omitempty"`
	Tools        *ItemsDiff              `json:"tools,omitempty"`
	Skipped      *ItemsDiff              `json:"skipped_tools,omitempty"`
	Prompts      *ItemsDiff              `json:"prompts,omitempty"`
	Resources    *ItemsDiff              `json:"resources,omitempty"`
	Templates    *ItemsDiff              `json:"resource_templates,omitempty"`
}

// ValueChange is one scalar that changed.
type ValueChange struct {
	Field string `json:"field"`
	Old   string `json:"old"`
	New   string `json:"new"`
}

// ItemsDiff is how a list of definitions changed.
type ItemsDiff struct {
	Added   []string     `json:"added,omitempty"`
	Removed []string     `json:"removed,omitempty"`
	Changed []ItemChange `json:"changed,omitempty"`
}

// ItemChange is one definition that changed, field by field
// (discovery.DiffDefinitions). Description holds a word diff of a changed
// description.
type ItemChange struct {
	Name        string                  `json:"name"`
	Changes     []discovery.FieldChange `json:"changes"`
	Description string                  `json:"description_diff,omitempty"`
	// ReadOnlyClaimed: the definition now claims readOnlyHint and did not.
	ReadOnlyClaimed bool `json:"read_only_claimed,omitempty"`
}

func (d *ItemsDiff) empty() bool {
	return d == nil || (len(d.Added) == 0 && len(d.Removed) == 0 && len(d.Changed) == 0)
}

// Compare reports how live differs from locked (against names locked).
func Compare(against string, locked, live *File) *Diff {
	d := &Diff{Against: against, Servers: []ServerDiff{}}
	old := map[string]*Server{}
	for i := range locked.Servers {
		old[locked.Servers[i].Name] = &locked.Servers[i]
	}
	seen := map[string]bool{}
	for i := range live.Servers {
		n := &live.Servers[i]
		seen[n.Name] = true
		o := old[n.Name]
		if o == nil {
			d.Servers = append(d.Servers, ServerDiff{Server: n.Name, Change: "added"})
			continue
		}
		if sd, ok := compareServer(d, o, n); ok {
			d.Servers = append(d.Servers, sd)
		}
	}
	for _, o := range locked.Servers {
		if !seen[o.Name] {
			d.Servers = append(d.Servers, ServerDiff{Server: o.Name, Change: "removed"})
		}
	}
	return d
}

func compareServer(d *Diff, o, n *Server) (ServerDiff, bool) {
	sd := ServerDiff{Server: n.Name, Change: "changed"}
	if o.Transport != n.Transport {
		sd.Identity = append(sd.Identity, ValueChange{Field: "transport", Old: o.Transport, New: n.Transport})
	}
	if o.URL != n.URL {
		sd.Identity = append(sd.Identity, ValueChange{Field: "url", Old: o.URL, New: n.URL})
	}
	if o.Digest != n.Digest && o.Digest != "" && n.Digest != "" {
		d.Notes = append(d.Notes, "server "+n.Name+": the consent digest differs ("+o.Digest+" locked, "+n.Digest+" now): the command, its arguments, env names or cwd resolve differently here")
	}
	if o.Protocol != n.Protocol {
		sd.Protocol = &ValueChange{Field: "protocol", Old: o.Protocol, New: n.Protocol}
	}
	if !bytes.Equal(o.Capabilities, n.Capabilities) {
		sd.Capabilities = discovery.DiffDefinitions(o.Capabilities, n.Capabilities)
	}
	sd.Tools = compareItems(o.Tools, n.Tools)
	sd.Skipped = compareItems(o.Skipped, n.Skipped)
	sd.Prompts = compareItems(o.Prompts, n.Prompts)
	sd.Resources = compareItems(o.Resources, n.Resources)
	sd.Templates = compareItems(o.Templates, n.Templates)
	changed := len(sd.Identity) > 0 || sd.Protocol != nil || len(sd.Capabilities) > 0
	for _, it := range []**ItemsDiff{&sd.Tools, &sd.Skipped, &sd.Prompts, &sd.Resources, &sd.Templates} {
		if (*it).empty() {
			*it = nil
		} else {
			changed = true
		}
	}
	return sd, changed
}

// compareItems compares two sorted lists of definitions by name.
func compareItems(o, n []Item) *ItemsDiff {
	d := &ItemsDiff{}
	old := map[string]Item{}
	for _, it := range o {
		old[it.Name] = it
	}
	seen := map[string]bool{}
	for _, it := range n {
		seen[it.Name] = true
		was, ok := old[it.Name]
		switch {
		case !ok:
			d.Added = append(d.Added, it.Name)
		case !bytes.Equal(was.Def, it.Def):
			ic := ItemChange{Name: it.Name, Changes: discovery.DiffDefinitions(was.Def, it.Def)}
			for _, c := range ic.Changes {
				switch c.Kind {
				case discovery.ChangeReadOnlyClaimed:
					ic.ReadOnlyClaimed = true
				case discovery.ChangeDescription:
					ic.Description = WordDiff(descriptionOf(was.Def), descriptionOf(it.Def))
				}
			}
			if len(ic.Changes) > 0 {
				d.Changed = append(d.Changed, ic)
			}
		}
	}
	for _, it := range o {
		if !seen[it.Name] {
			d.Removed = append(d.Removed, it.Name)
		}
	}
	return d
}

func descriptionOf(def []byte) string {
	var v struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal(def, &v)
	return v.Description
}
