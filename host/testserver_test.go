package host

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/stream"
)

// inprocServer is an in-process SDK server with the tools the network and
// in-memory tests call: echo, progress(steps), log(n), slow(ms), elicit.
func inprocServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "inproc", Version: "1"}, nil)
	type echoIn struct {
		Message string `json:"message"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Message}}}, nil, nil
		})
	type progIn struct {
		Steps int `json:"steps"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, in progIn) (*mcp.CallToolResult, any, error) {
			for i := 1; i <= in.Steps; i++ {
				if tok := req.Params.GetProgressToken(); tok != nil {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: float64(in.Steps)})
				}
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
		})
	type logIn struct {
		N int `json:"n"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "log"},
		func(ctx context.Context, req *mcp.CallToolRequest, in logIn) (*mcp.CallToolResult, any, error) {
			for i := 1; i <= in.N; i++ {
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: fmt.Sprintf("line %d", i)})
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "logged"}}}, nil, nil
		})
	type slowIn struct {
		MS int `json:"ms"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "slow"},
		func(ctx context.Context, _ *mcp.CallToolRequest, in slowIn) (*mcp.CallToolResult, any, error) {
			select {
			case <-time.After(time.Duration(in.MS) * time.Millisecond):
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slept"}}}, nil, nil
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		})
	s.AddTool(&mcp.Tool{Name: "elicit", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: "name?", RequestedSchema: &jsonschema.Schema{
				Type: "object", Properties: map[string]*jsonschema.Schema{"name": {Type: "string", Default: []byte(`"anon"`)}}}})
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Action + fmt.Sprint(res.Content["name"])}}}, nil
		})
	return s
}

// memoryServer connects an in-process server over in-memory pipes.
func memoryServer(t testing.TB, name string, s *mcp.Server) Endpoint {
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	return Endpoint{Name: name, Transport: "memory", memory: ct}
}

// serveHTTP serves the in-process server on loopback: Streamable HTTP at
// /mcp, legacy SSE at /sse, websocket at /ws. It returns the base url.
func serveHTTP(t testing.TB, s *mcp.Server) string {
	t.Helper()
	mux := http.NewServeMux()
	get := func(*http.Request) *mcp.Server { return s }
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, nil))
	mux.Handle("/sse", mcp.NewSSEHandler(get, nil))
	mux.HandleFunc("/ws", func(w http.ResponseWriter, r *http.Request) {
		ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{Subprotocols: []string{"mcp"}})
		if err != nil {
			return
		}
		ss, err := s.Connect(r.Context(), wsServerTransport{stream.NewWSConn(ws)}, nil)
		if err != nil {
			return
		}
		_ = ss.Wait()
	})
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

type wsServerTransport struct{ c *stream.WSConn }

func (w wsServerTransport) Connect(context.Context) (mcp.Connection, error) { return w.c, nil }

// networkServer admits url through guard with the local opt-in.
func networkServer(t *testing.T, g *netguard.Guard, name, transport, url string) Endpoint {
	t.Helper()
	target, err := g.Admit(url, transport, true)
	if err != nil {
		t.Fatalf("admit %s: %v", url, err)
	}
	return Endpoint{Name: name, Transport: transport, Target: target}
}

// serveHang accepts connections on loopback and never answers; it returns
// the base url.
func serveHang(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		_ = ln.Close()
		<-done
		mu.Lock()
		for _, c := range conns {
			_ = c.Close()
		}
		mu.Unlock()
	})
	return "http://" + ln.Addr().String()
}
