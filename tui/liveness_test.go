package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/failure"
)

// ServerDetails answers for a connected server with what the fake's
// initialize would have said.
func (f *fakeBackend) ServerDetails(server string) (host.ServerDetails, bool) {
	return host.ServerDetails{Name: server + "-server", Title: "The " + server + " server", Version: "1.2.3", WebsiteURL: "https://example.com/" + server,
		Capabilities: []string{"tools (listChanged)", "resources (subscribe)", "logging"}, Instructions: "Call echo first.\x1b[31m red", Protocol: "2025-11-25"}, true
}

// Ping answers for a connected server with a fixed round trip.
func (f *fakeBackend) Ping(_ context.Context, server string) (time.Duration, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.connected[server] {
		return 0, &fault.Error{ErrCode: failure.CodeServerNotReady, Msg: "server " + server + " is not running"}
	}
	return 1234 * time.Microsecond, nil
}

func TestPingKeyOnTheServersPane(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("p")
	h.until("the ping's round trip", func() bool { return strings.Contains(h.m.status.text, "ping demo: 1.234 ms") })
	if !strings.Contains(h.view(), "p ping") {
		t.Errorf("the servers pane's footer does not offer p ping:\n%s", h.view())
	}
}

// A lost network server says when it is dialled again; a later state
// clears it.
func TestRetryShownOnALostServer(t *testing.T) {
	h := ready(t, 120, 40)
	h.f.emit(engine.EventServer, engine.ServerData{Server: "demo", State: engine.StateFailed, Transport: "http",
		ErrorCode: failure.CodeConnectionLost, Error: "server demo refused the connection", RetryMS: 4000, RetryAttempt: 2})
	h.until("the failed state", func() bool { return h.m.server("demo").state == engine.StateFailed })
	h.key("i")
	frame := strings.Join(strings.Fields(h.view()), " ")
	if !strings.Contains(frame, "reconnecting (attempt 2) in 4.0s") || !strings.Contains(frame, "E506") {
		t.Fatalf("the server's details lack the retry:\n%s", h.view())
	}
	h.key("esc")
	h.f.emit(engine.EventServer, engine.ServerData{Server: "demo", State: engine.StateConnecting, Transport: "http"})
	h.until("connecting", func() bool { return h.m.server("demo").state == engine.StateConnecting })
	if !h.m.server("demo").retryAt.IsZero() {
		t.Error("the retry time outlived the failed state")
	}
}

// prompts/list_changed drops the server's prompts, read again when shown.
func TestPromptsListChangedReloads(t *testing.T) {
	h := ready(t, 120, 30)
	h.key("tab", "]", "]")
	h.until("the prompts loaded", func() bool { _, ok := h.m.browse.prompts["demo"]; return ok })
	h.m.browse.prompts["demo"] = nil // what a reload must replace
	h.f.emit(engine.EventListChanged, host.ListChangedData{Server: "demo", List: "prompts"})
	h.until("the prompts read again", func() bool { p := h.m.browse.prompts["demo"]; return len(p) == 1 })
	if !strings.Contains(h.m.status.text, "demo: prompts changed") {
		t.Errorf("status = %q", h.m.status.text)
	}
}
