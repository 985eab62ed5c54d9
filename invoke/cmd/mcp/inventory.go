package mcp

import (
	"context"
	"strings"
	"sync"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/session"
)

// The listing `mcp ls` prints, which the headless session prints too.

// Inventory connects servers the way `mcp ls` does and lists them.
func Inventory(ctx context.Context, inv *cli.Invocation, servers []config.Server) (*MCPList, error) {
	s, err := cli.NewSession(inv, servers, nil, cli.ConnectOptions{})
	if err != nil {
		return nil, err
	}
	h, err := s.Start(ctx, nil)
	if err != nil {
		if len(servers) < 2 {
			return nil, err
		}
		return inventoryEach(ctx, inv, s, servers, err)
	}
	defer h.Close()
	return inventoryOf(inv, servers, h, h.Servers()), nil
}

// inventoryEach is mcp ls after a start that failed loud: the servers are
// connected one by one in the same session (consent answered once holds),
// so the healthy servers' tools are listed beside the failed servers' rows,
// and the start's error still decides the exit.
func inventoryEach(ctx context.Context, inv *cli.Invocation, s *session.Session, servers []config.Server, startErr error) (*MCPList, error) {
	live, err := s.Open(ctx)
	if err != nil {
		return nil, startErr
	}
	defer live.Close()
	errs := make([]error, len(servers))
	var wg sync.WaitGroup
	for i, srv := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = live.Connect(ctx, srv.Name)
		}()
	}
	wg.Wait()
	h := live.Host()
	byName := map[string]host.ServerStatus{}
	for _, st := range h.Servers() {
		byName[st.Name] = st
	}
	var statuses []host.ServerStatus
	for i, srv := range servers { // declaration order
		st, ok := byName[srv.Name]
		if !ok {
			st = host.ServerStatus{Name: srv.Name, Transport: srv.Transport, State: engine.StateFailed}
		}
		if errs[i] != nil && st.Error == "" {
			code := fault.CodeOf(errs[i], failure.CodeStartFailed)
			msg := strings.Replace(sanitize.Line(errs[i].Error()), string(code)+": ", "", 1) // the row shows the code once
			st.State, st.ErrorCode, st.Error = engine.StateFailed, code, msg
		}
		statuses = append(statuses, st)
	}
	list := inventoryOf(inv, servers, h, statuses)
	list.partial = true
	return list, startErr
}

// inventoryOf is the listing of a connected host.
func inventoryOf(inv *cli.Invocation, servers []config.Server, h *host.Host, statuses []host.ServerStatus) *MCPList {
	list := &MCPList{Servers: statuses, Tools: []MCPTool{}, Skipped: h.Skipped(), Imported: sourcesOf(servers), project: inv.Global.Project}
	if list.Skipped == nil {
		list.Skipped = []engine.SkippedTool{}
	}
	tools := h.Tools()
	for _, d := range tools {
		t := MCPTool{Name: d.Name, Server: d.Server, Tool: d.Tool, Title: d.Title,
			Description: d.Description, Annotations: d.Annotations, Args: argSummary(d), Changed: d.Changed, Digest: d.Digest}
		if d.Changed {
			t.Changes, _ = h.Changes(d.ID)
		}
		list.Tools = append(list.Tools, t)
	}
	list.markApprovals(inv, servers, tools)
	return list
}
