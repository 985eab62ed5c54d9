package session

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
)

type countAccepts struct {
	net.Listener
	n *atomic.Int64
}

func (l countAccepts) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// The live session (the workbench's) connects a held local address only
// once the person's answer is recorded: before it, Connect refuses with the
// PendingError naming the local endpoint (E327) and the listener accepts
// nothing; a denial keeps it so; approved once, it connects.
func TestLiveConnectsAHeldLocalAddressOnlyOnThePersonsWord(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{HasTools: true})
	accepted := &atomic.Int64{}
	origin := httptest.NewUnstartedServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	origin.Listener = countAccepts{Listener: origin.Listener, n: accepted}
	origin.Start()
	defer origin.Close()
	srv := config.Server{Name: "mine", Transport: host.TransportHTTP, URL: origin.URL + "/mcp", LocalHeld: true,
		Pos: config.Pos{File: "/p/.cursor/mcp.json", Line: 1, Col: 17}}
	sess := New(testOptions(t), []config.Server{srv})
	lv, err := sess.Open(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer lv.Close()

	err = lv.Connect(context.Background(), "mine")
	var pe *consent.PendingError
	if !errors.As(err, &pe) || pe.Code() != consent.CodeLocalHeld || len(pe.Bindings) != 1 || !pe.Bindings[0].Binding.Local {
		t.Fatalf("connect before the person's word = %v", err)
	}
	b := pe.Bindings[0].Binding
	if b.Source != "/p/.cursor/mcp.json:1:17" || accepted.Load() != 0 {
		t.Fatalf("source %q, %d connection(s) accepted", b.Source, accepted.Load())
	}
	if err := sess.RecordBinding(b, Deny); err != nil {
		t.Fatal(err)
	}
	if err := lv.Connect(context.Background(), "mine"); codeOf(err) != consent.CodeDenied || accepted.Load() != 0 {
		t.Fatalf("connect after a denial = %v (%d accepted)", err, accepted.Load())
	}
	if err := sess.RecordBinding(b, ApproveOnce); err != nil {
		t.Fatal(err)
	}
	if err := lv.Connect(context.Background(), "mine"); err != nil {
		t.Fatalf("connect approved once: %v", err)
	}
	if accepted.Load() == 0 {
		t.Fatal("the approved address was not dialled")
	}
}
