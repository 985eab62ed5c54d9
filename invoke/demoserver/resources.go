package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	staticTextURI   = "test://static-text"
	staticBinaryURI = "test://static-binary"
	watchedURI      = "test://watched-resource"
	guideURI        = "demo://guide"
	dataTemplate    = "test://template/{id}/data"
	notesTemplate   = "demo://notes/{id}"
)

const guide = `# relavium demo server

This server exists so you can see everything relavium shows without
configuring anything.

- **Tools**: call ` + "`echo`" + `, ` + "`add_numbers`" + `, ` + "`get_weather`" + ` (structured content),
  ` + "`long_operation`" + ` (progress; cancel it), ` + "`emit_logs`" + `, ` + "`ask_user`" + ` (a form),
  ` + "`create_note`" + ` (writes) and ` + "`delete_file`" + ` (destructive: relavium asks first).
- **Skipped tools**: ` + "`remote_ref_schema`" + `, ` + "`draft04_schema`" + ` and ` + "`control_char_property`" + `
  declare schemas relavium refuses, with the reason shown.
- **Resources**: this guide, ` + staticTextURI + `, ` + staticBinaryURI + `, ` + watchedURI + `
  (subscribe to it), and the templates ` + dataTemplate + ` and ` + notesTemplate + `.
`

// resourceLinks are get_resource_links' answers, in order.
func resourceLinks() []*mcp.ResourceLink {
	return []*mcp.ResourceLink{
		{URI: guideURI, Name: "guide", Title: "Demo server guide", MIMEType: "text/markdown", Description: "What this server offers"},
		{URI: staticTextURI, Name: "static-text", MIMEType: "text/plain", Description: "A static text resource"},
		{URI: staticBinaryURI, Name: "static-binary", MIMEType: "image/png", Description: "A static binary resource"},
		{URI: "test://template/42/data", Name: "template-42", MIMEType: "application/json", Description: "A templated resource"},
		{URI: watchedURI, Name: "watched-resource", MIMEType: "text/plain", Description: "A resource that reports updates"},
	}
}

func (s *Server) addResources() {
	textRes := func(body, mime string) mcp.ResourceHandler {
		return func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: mime, Text: body}}}, nil
		}
	}
	s.mcp.AddResource(&mcp.Resource{URI: guideURI, Name: "guide", Title: "Demo server guide",
		Description: "What this server offers and what to try", MIMEType: "text/markdown"}, textRes(guide, "text/markdown"))
	s.mcp.AddResource(&mcp.Resource{URI: staticTextURI, Name: "static-text", Title: "Static text",
		Description: "A static text resource (conformance fixture)", MIMEType: "text/plain"},
		textRes("This is the content of the static text resource.", "text/plain"))
	s.mcp.AddResource(&mcp.Resource{URI: staticBinaryURI, Name: "static-binary", Title: "Static binary",
		Description: "A static binary resource, a PNG image (conformance fixture)", MIMEType: "image/png"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "image/png", Blob: pngData()}}}, nil
		})
	s.mcp.AddResource(&mcp.Resource{URI: watchedURI, Name: "watched-resource", Title: "Watched resource",
		Description: "Subscribe to it: it reports an update periodically and on touch_watched_resource (conformance fixture)", MIMEType: "text/plain"},
		textRes("Watched resource content", "text/plain"))

	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: dataTemplate, Name: "template-data", Title: "Templated data",
		Description: "JSON for any id (conformance fixture)", MIMEType: "application/json"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			id, ok := between(req.Params.URI, "test://template/", "/data")
			if !ok {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			b, err := json.Marshal(struct {
				ID           string `json:"id"`
				TemplateTest bool   `json:"templateTest"`
				Data         string `json:"data"`
			}{id, true, "Data for ID: " + id})
			if err != nil {
				return nil, err
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}}, nil
		})

	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: notesTemplate, Name: "note", Title: "Note",
		Description: "A note made with create_note", MIMEType: "text/markdown"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			raw, ok := between(req.Params.URI, "demo://notes/", "")
			id, err := strconv.Atoi(raw)
			if !ok || err != nil {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			n, ok := s.notes.get(id)
			if !ok {
				return nil, mcp.ResourceNotFoundError(req.Params.URI)
			}
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/markdown",
				Text: fmt.Sprintf("# %s\n\n%s\n", n.Title, n.Body)}}}, nil
		})
}

// between returns the non-empty text of uri between prefix and suffix, which
// contains no slash.
func between(uri, prefix, suffix string) (string, bool) {
	if !strings.HasPrefix(uri, prefix) || !strings.HasSuffix(uri, suffix) || len(uri) < len(prefix)+len(suffix) {
		return "", false
	}
	v := uri[len(prefix) : len(uri)-len(suffix)]
	return v, v != "" && !strings.Contains(v, "/")
}
