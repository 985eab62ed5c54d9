package demoserver_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/invoke/demoserver"
)

// extraListed returns extra_tool as the server lists it now, or nil.
func extraListed(t *testing.T, cs *mcp.ClientSession) *mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(res.Tools, func(tl *mcp.Tool) bool { return tl.Name == demoserver.ExtraTool }); i >= 0 {
		return res.Tools[i]
	}
	return nil
}

// toggle_extra_tool adds extra_tool, then removes it, then adds it with
// another description; each change reaches the client as
// notifications/tools/list_changed, in both protocol eras (the modern one
// through subscriptions/listen).
func TestToggleExtraToolChangesTheList(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			changed := make(chan struct{}, 16)
			_, cs := connect(t, proto, &mcp.ClientOptions{
				ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
			})
			waitChanged := func(what string) {
				t.Helper()
				select {
				case <-changed:
				case <-time.After(10 * time.Second):
					t.Fatalf("no notifications/tools/list_changed after %s", what)
				}
			}
			if extraListed(t, cs) != nil {
				t.Fatal("extra_tool is listed before it was added")
			}
			wantText("Added extra_tool")(t, call(t, cs, "toggle_extra_tool", map[string]any{}))
			waitChanged("adding")
			first := extraListed(t, cs)
			if first == nil || first.Description == "" {
				t.Fatalf("extra_tool after it was added: %+v", first)
			}
			wantText("The extra tool answered.")(t, call(t, cs, demoserver.ExtraTool, map[string]any{}))

			wantText("Removed extra_tool")(t, call(t, cs, "toggle_extra_tool", map[string]any{}))
			waitChanged("removing")
			if extraListed(t, cs) != nil {
				t.Fatal("extra_tool is still listed after it was removed")
			}

			wantText("Added extra_tool")(t, call(t, cs, "toggle_extra_tool", map[string]any{"changed": true}))
			waitChanged("adding it changed")
			if again := extraListed(t, cs); again == nil || again.Description == first.Description {
				t.Fatalf("extra_tool added changed: %+v, first listed as %+v", again, first)
			}
		})
	}
}
