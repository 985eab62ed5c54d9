package lock

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strings"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/sandbox"
)

// FileName is the lock's path inside a project.
const FileName = ".relavium/mcp-lock.json"

// Version is the lock format's version.
const Version = 1

// File is a lock: what every declared server offered when it was written.
type File struct {
	V       int      `json:"v"`
	Servers []Server `json:"servers"`
}

// Server is one server's entry, sorted members throughout.
type Server struct {
	Name      string `json:"name"`
	Transport string `json:"transport"`
	// Digest is a stdio server's consent digest; URL a network server's
	// redacted url.
	Digest string `json:"digest,omitempty"`
	URL    string `json:"url,omitempty"`
	// Sandbox is the stdio server's effective sandbox policy when locked
	// (its digest covers it; recorded for review, not compared).
	Sandbox      *sandbox.Policy `json:"sandbox,omitempty"`
	Protocol     string          `json:"protocol"`
	Capabilities json.RawMessage `json:"capabilities"`
	Tools        []Item          `json:"tools"`
	// Skipped are the tools discovery refused: their definitions are
	// {"reason": code}.
	Skipped   []Item `json:"skipped_tools"`
	Prompts   []Item `json:"prompts"`
	Resources []Item `json:"resources"`
	Templates []Item `json:"resource_templates"`
	// NotOffered are the lists the server declares but answered -32601
	// (method not found): each is recorded empty, not a failure.
	NotOffered []string `json:"lists_not_offered,omitempty"`
}

// Item is one definition: a tool or prompt by name, a resource by uri, a
// template by uri template; Def is canonical JSON and Digest its sha256.
type Item struct {
	Name   string          `json:"name"`
	Digest string          `json:"digest"`
	Def    json.RawMessage `json:"definition"`
}

// Snapshot is what one connected server offers, as the host reports it.
type Snapshot struct {
	Defs      *host.Definitions
	Prompts   []host.Prompt
	Resources *host.ResourceList
}

// Build makes the lock of snaps, sorted and canonical.
func Build(snaps []Snapshot) *File {
	f := &File{V: Version, Servers: []Server{}}
	for _, s := range snaps {
		d := s.Defs
		srv := Server{Name: d.Server, Transport: d.Transport, Digest: d.Digest, URL: d.URL, Protocol: d.Protocol, Sandbox: d.Sandbox,
			Capabilities: canonical(d.Capabilities), Tools: []Item{}, Skipped: []Item{}, Prompts: []Item{}, Resources: []Item{}, Templates: []Item{},
			NotOffered: slices.Clone(d.NotOffered)}
		for _, t := range d.Tools {
			srv.Tools = append(srv.Tools, item(t.Name, t.Canonical))
		}
		for _, sk := range d.Skipped {
			if sk.Tool == "*" {
				continue // a pseudo row (paging stopped): not a tool
			}
			def, _ := json.Marshal(map[string]string{"reason": sk.Code})
			srv.Skipped = append(srv.Skipped, item(sk.Tool, def))
		}
		for _, p := range s.Prompts {
			srv.Prompts = append(srv.Prompts, itemOf(p.Name, p))
		}
		if s.Resources != nil {
			for _, r := range s.Resources.Resources {
				srv.Resources = append(srv.Resources, itemOf(r.URI, r))
			}
			for _, t := range s.Resources.Templates {
				srv.Templates = append(srv.Templates, itemOf(t.URITemplate, t))
			}
		}
		for _, items := range []*[]Item{&srv.Tools, &srv.Skipped, &srv.Prompts, &srv.Resources, &srv.Templates} {
			slices.SortStableFunc(*items, func(a, b Item) int { return strings.Compare(a.Name, b.Name) })
		}
		f.Servers = append(f.Servers, srv)
	}
	slices.SortStableFunc(f.Servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) })
	return f
}

func itemOf(name string, v any) Item {
	b, _ := json.Marshal(v)
	return item(name, b)
}

func item(name string, def []byte) Item {
	c := canonical(def)
	return Item{Name: name, Digest: Digest(c), Def: c}
}

// Digest is the sha256 of a canonical definition.
func Digest(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// canonical is raw in canonical JSON (consent/canonjson). A value that
// form refuses (an integer beyond 2^53) is kept compacted as it was.
func canonical(raw []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		if c, err := canonjson.Marshal(v); err == nil {
			return c
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return json.RawMessage("null")
	}
	return b.Bytes()
}

// Redactor is the session's one redactor as host applies it to what a
// server hands back (host.Host.Redact).
type Redactor interface {
	Redact(server, s string) string
}

// Redact passes what a server offers through r before anything is
// digested: the lock is a record relavium writes, so a value of the
// session a server repeats (the path its url was expanded with, a
// header's token) is kept as the reference it stands for — never the
// value, and a lock that does not change with it. `mcp lock`, `mcp check`
// and the workbench's drift all build their snapshots this way.
func (s *Snapshot) Redact(r Redactor) error {
	server := s.Defs.Server
	d := *s.Defs
	d.Tools = make([]host.DefinedTool, len(s.Defs.Tools))
	for i, t := range s.Defs.Tools {
		d.Tools[i] = host.DefinedTool{Name: t.Name, Canonical: json.RawMessage(r.Redact(server, string(t.Canonical)))}
	}
	s.Defs = &d
	if err := redactJSON(r, server, &s.Prompts); err != nil {
		return err
	}
	if s.Resources != nil {
		return redactJSON(r, server, s.Resources)
	}
	return nil
}

// redactJSON redacts v through its JSON form (a replacement never needs
// escaping, so the document stays valid).
func redactJSON(r Redactor, server string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(r.Redact(server, string(b))), v)
}
