package demoserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResources(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	for _, r := range list.Resources {
		if r.URI == "" || r.Name == "" || r.Description == "" || r.MIMEType == "" {
			t.Errorf("incomplete resource %+v", r)
		}
		uris[r.URI] = true
	}
	for _, want := range []string{"test://static-text", "test://static-binary", "test://watched-resource", "demo://guide"} {
		if !uris[want] {
			t.Errorf("resource %s not listed", want)
		}
	}

	read := func(uri string) *mcp.ResourceContents {
		t.Helper()
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		if len(res.Contents) != 1 || res.Contents[0].URI != uri {
			t.Fatalf("read %s: %+v", uri, res.Contents)
		}
		return res.Contents[0]
	}
	if c := read("test://static-text"); c.MIMEType != "text/plain" || c.Text != "This is the content of the static text resource." {
		t.Errorf("static-text %+v", c)
	}
	c := read("test://static-binary")
	if c.MIMEType != "image/png" {
		t.Errorf("static-binary mime %q", c.MIMEType)
	}
	wantPNG(t, c.Blob)
	if c := read("demo://guide"); c.MIMEType != "text/markdown" || !strings.Contains(c.Text, "# relavium demo server") {
		t.Errorf("guide %+v", c)
	}

	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://nope"})
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) || werr.Code != mcp.CodeResourceNotFound {
		t.Errorf("unknown resource: %v, want resource-not-found", err)
	}
}

func TestResourceTemplates(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	ctx := context.Background()
	list, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, rt := range list.ResourceTemplates {
		got[rt.URITemplate] = true
	}
	if !got["test://template/{id}/data"] || !got["demo://notes/{id}"] {
		t.Fatalf("templates %v", got)
	}

	res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://template/123/data"})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Contents[0]; c.MIMEType != "application/json" || c.Text != `{"id":"123","templateTest":true,"data":"Data for ID: 123"}` {
		t.Errorf("template read %+v", c)
	}
	for _, bad := range []string{"test://template//data", "test://template/a/b/data", "demo://notes/x", "demo://notes/99"} {
		if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: bad}); err == nil {
			t.Errorf("read %s: want an error", bad)
		}
	}

	// A note made with create_note reads back through its template.
	call(t, cs, "create_note", map[string]any{"title": "Plan", "body": "ship it"})
	res, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "demo://notes/1"})
	if err != nil {
		t.Fatal(err)
	}
	if c := res.Contents[0]; c.Text != "# Plan\n\nship it\n" {
		t.Errorf("note %q", c.Text)
	}
}

// The note store is bounded: the 101st note is refused, and nothing is lost.
func TestNotesAreBounded(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	for i := 1; i <= 100; i++ {
		if res := call(t, cs, "create_note", map[string]any{"title": "n"}); res.IsError {
			t.Fatalf("note %d refused: %s", i, textOf(t, res))
		}
	}
	wantError("limit")(t, call(t, cs, "create_note", map[string]any{"title": "one too many"}))
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "demo://notes/100"}); err != nil {
		t.Fatalf("note 100 lost: %v", err)
	}
	wantError("title")(t, call(t, cs, "create_note", map[string]any{"title": strings.Repeat("x", 201)}))
}

func TestSubscribeAndUpdate(t *testing.T) {
	rec := newRecorder()
	_, cs := connect(t, legacy, rec.options(nil))
	ctx := context.Background()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "touch_watched_resource", map[string]any{})
	rec.waitFor(t, "an update", func(r *recorder) bool { return len(r.updated) == 1 })
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://watched-resource"}); err != nil {
		t.Fatal(err)
	}
	call(t, cs, "touch_watched_resource", map[string]any{})
	call(t, cs, "echo", map[string]any{"message": "flush"})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.updated) != 1 || rec.updated[0] != "test://watched-resource" {
		t.Fatalf("updates %v, want exactly one before unsubscribing", rec.updated)
	}
}

func TestPrompts(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range list.Prompts {
		if p.Description == "" {
			t.Errorf("prompt %s has no description", p.Name)
		}
		names[p.Name] = true
	}
	get := func(name string, args map[string]string) string {
		t.Helper()
		if !names[name] {
			t.Fatalf("prompt %s not listed", name)
		}
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("get %s: %v", name, err)
		}
		b, _ := json.Marshal(res.Messages)
		return string(b)
	}
	if m := get("test_simple_prompt", nil); !strings.Contains(m, "This is a simple prompt for testing.") {
		t.Errorf("simple: %s", m)
	}
	if m := get("test_prompt_with_arguments", map[string]string{"arg1": "hello", "arg2": "world"}); !strings.Contains(m, "arg1='hello', arg2='world'") {
		t.Errorf("with args: %s", m)
	}
	if m := get("test_prompt_with_embedded_resource", map[string]string{"resourceUri": "test://example-resource"}); !strings.Contains(m, `"type":"resource"`) || !strings.Contains(m, "test://example-resource") {
		t.Errorf("embedded: %s", m)
	}
	if m := get("test_prompt_with_image", nil); !strings.Contains(m, `"type":"image"`) || !strings.Contains(m, `"mimeType":"image/png"`) {
		t.Errorf("image: %s", m)
	}
	if m := get("review_code", map[string]string{"code": "x := 1", "language": "go"}); !strings.Contains(m, "written in go") {
		t.Errorf("review_code: %s", m)
	}
	if _, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "test_prompt_with_arguments", Arguments: map[string]string{"arg1": "only"}}); err == nil {
		t.Error("a missing required argument was accepted")
	} else if !strings.Contains(err.Error(), "arg2") {
		t.Errorf("the refusal does not name arg2: %v", err)
	}
}

func TestCompletion(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	ctx := context.Background()
	complete := func(ref *mcp.CompleteReference, arg, value string) []string {
		t.Helper()
		res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Completion.Values == nil || res.Completion.Total != len(res.Completion.Values) {
			t.Fatalf("completion %+v", res.Completion)
		}
		return res.Completion.Values
	}
	prompt := &mcp.CompleteReference{Type: "ref/prompt", Name: "test_prompt_with_arguments"}
	if v := complete(prompt, "arg1", "par"); strings.Join(v, ",") != "paris,park,party" {
		t.Errorf("arg1 par: %v", v)
	}
	if v := complete(prompt, "arg1", "zzz"); len(v) != 0 {
		t.Errorf("arg1 zzz: %v", v)
	}
	if v := complete(&mcp.CompleteReference{Type: "ref/prompt", Name: "review_code"}, "language", "ja"); strings.Join(v, ",") != "java,javascript" {
		t.Errorf("language ja: %v", v)
	}
	call(t, cs, "create_note", map[string]any{"title": "a"})
	if v := complete(&mcp.CompleteReference{Type: "ref/resource", URI: "demo://notes/{id}"}, "id", ""); strings.Join(v, ",") != "1" {
		t.Errorf("note ids: %v", v)
	}
	if v := complete(&mcp.CompleteReference{Type: "ref/resource", URI: "test://template/{id}/data"}, "id", "1"); strings.Join(v, ",") != "1,123" {
		t.Errorf("template ids: %v", v)
	}
}
