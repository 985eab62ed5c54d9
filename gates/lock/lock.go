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
