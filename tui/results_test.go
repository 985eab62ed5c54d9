package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/tui/dialog"
)

// pngBytes is a real w×h PNG.
func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// resultWith makes the next call answer parts.
func resultWith(h *harness, parts ...engine.Content) {
	h.f.call = func(context.Context, string, engine.ToolDef, json.RawMessage, func(engine.Progress)) (*engine.ToolResult, error) {
		return &engine.ToolResult{Content: parts}, nil
	}
	h.key("tab", "enter")
	h.typeText("x")
	h.key("ctrl+s")
	h.until("the result", func() bool { j := h.m.call.shownJob(); return j != nil && j.finished() })
}

// s saves the result as JSON and every binary part, each to its own file,
// and says where, with type and size; an image's placeholder gives its
// pixel size.
func TestSaveBinaryParts(t *testing.T) {
	h := ready(t, 120, 30)
	img := pngBytes(t, 3, 2)
	resultWith(h, engine.Content{Type: "text", Text: "two parts"},
		engine.Content{Type: "image", MIMEType: "image/png", Data: img},
		engine.Content{Type: "audio", MIMEType: "audio/wav", Data: []byte("RIFFdata")})
	if v := h.view(); !strings.Contains(v, "3×2 px") {
		t.Fatalf("the image placeholder does not describe it:\n%s", v)
	}
	h.key("s")
	h.until("saved", func() bool { return strings.Contains(h.m.status.text, "2 binary part(s): image/png") })
	if !strings.HasPrefix(h.m.status.text, "result saved to ") || !strings.Contains(h.m.status.text, "audio/wav 8 B") {
		t.Fatalf("status = %q", h.m.status.text)
	}
	j := h.m.call.shownJob()
	for n, want := range map[string][]byte{"1.png": img, "2.wav": []byte("RIFFdata")} {
		path := h.f.saveDir + "/" + j.id + "-" + n
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v, %d bytes", path, err, len(got))
		}
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v", path, fi.Mode().Perm())
		}
	}
	h2 := ready(t, 120, 30)
	resultWith(h2, engine.Content{Type: "text", Text: "only text"})
	h2.key("s")
	h2.until("the JSON saved", func() bool { return strings.HasPrefix(h2.m.status.text, "result saved to ") })
	if strings.Contains(h2.m.status.text, "binary part") {
		t.Errorf("a result without binary parts said it saved some: %q", h2.m.status.text)
	}
}

// o opens a result's resource link in the resources view: one at once,
// several through a pick list.
func TestOpenResourceLinks(t *testing.T) {
	h := ready(t, 120, 30)
	resultWith(h, engine.Content{Type: "resource_link", URI: "test://a", Name: "a"}, engine.Content{Type: "resource_link", URI: "test://b", Name: "b"})
	h.key("o")
	d, ok := h.m.topDialog().(*dialog.Pick)
	if !ok || len(d.Items) != 2 {
		t.Fatalf("no pick list of the two links: %T", h.m.topDialog())
	}
	h.key("down", "enter")
	h.until("the read", func() bool {
		j := h.m.call.shownJob()
		return j.kind == jobRead && j.title == "test://b" && j.finished()
	})
	if h.m.browse.tab != tabResources || h.m.call.shownJob().server != "demo" {
		t.Errorf("tab %v, server %q: want the resources view of demo", h.m.browse.tab, h.m.call.shownJob().server)
	}
	if v := h.view(); !strings.Contains(v, "contents of test://b") {
		t.Fatalf("the linked resource is not shown:\n%s", v)
	}
}

// Without a graphics protocol p says why and what to do instead.
func TestPreviewPlaceholderWithoutProtocol(t *testing.T) {
	h := ready(t, 120, 30)
	resultWith(h, engine.Content{Type: "image", MIMEType: "image/png", Data: pngBytes(t, 4, 4)})
	h.key("p")
	if !strings.Contains(h.m.status.text, "4×4 px") || !strings.Contains(h.m.status.text, "s saves it to a file") {
		t.Errorf("status = %q", h.m.status.text)
	}
}
