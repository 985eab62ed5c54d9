// Command hostile-discovery is a test MCP server that speaks raw JSON-RPC
// (so it can send bytes no SDK would: duplicate keys, invalid UTF-8, lone
// surrogates, broken schemas) with one catalogue per discovery bound and
// rule. It serves stdio by default, or Streamable HTTP with -http ADDR
// (printing its endpoint URL as the first stdout line, and exiting when
// stdin closes).
//
//	hostile-discovery -case NAME [-variant V] [-http 127.0.0.1:0] [-sse]
//
// -case and -variant default to $HOSTILE_CASE and $HOSTILE_VARIANT.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

func main() {
	caseName := flag.String("case", os.Getenv("HOSTILE_CASE"), "catalogue to serve")
	variant := flag.String("variant", os.Getenv("HOSTILE_VARIANT"), "catalogue variant")
	httpAddr := flag.String("http", "", "serve Streamable HTTP on this address instead of stdio")
	sse := flag.Bool("sse", false, "answer HTTP calls as text/event-stream")
	flag.Parse()
	src, ok := catalogues[*caseName]
	if !ok {
		fmt.Fprintf(os.Stderr, "hostile-discovery: unknown case %q\n", *caseName)
		os.Exit(2)
	}
	s := &server{pages: src(*variant)}
	if *httpAddr != "" {
		if err := s.serveHTTP(*httpAddr, *sse); err != nil {
			fmt.Fprintln(os.Stderr, "hostile-discovery:", err)
			os.Exit(1)
		}
		return
	}
	s.serveStdio()
}

// page is one tools/list answer. raw, when set, is the whole result.
type page struct {
	tools []string
	next  string
	delay time.Duration
	raw   string
	err   bool   // answer with a JSON-RPC error
	msg   string // the error's message ("" = a plain one)
}

type server struct {
	pages func(cursor string) page
}

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// handle returns the response line for one message, or nil for a
// notification.
func (s *server) handle(ctx context.Context, data []byte) []byte {
	var req request
	if err := json.Unmarshal(data, &req); err != nil || len(req.ID) == 0 {
		return nil
	}
	result := ""
	switch req.Method {
	case "initialize":
		result = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"hostile-discovery","version":"1"}}`
	case "ping":
		result = `{}`
	case "tools/list":
		var p struct {
			Cursor string `json:"cursor"`
		}
		_ = json.Unmarshal(req.Params, &p)
		pg := s.pages(p.Cursor)
		if pg.delay > 0 {
			select {
			case <-time.After(pg.delay):
			case <-ctx.Done():
				return nil
			}
		}
		if pg.err {
			msg := "tools/list exploded"
			if pg.msg != "" {
				msg = pg.msg
			}
			return rpcError(req.ID, -32603, msg)
		}
		result = pg.raw
		if result == "" {
			result = listResult(pg.tools, pg.next)
		}
	case "tools/call":
		result = `{"content":[{"type":"text","text":"ok"}]}`
	default:
		return rpcError(req.ID, -32601, "method not found: "+req.Method)
	}
	return []byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + result + `}`)
}

func rpcError(id json.RawMessage, code int, msg string) []byte {
	m, _ := json.Marshal(msg)
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`, id, code, m))
}

func listResult(tools []string, next string) string {
	b := []byte(`{"tools":[`)
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, t...)
	}
	b = append(b, ']')
	if next != "" {
		b = append(b, `,"nextCursor":`...)
		b = append(b, q(next)...)
	}
	return string(append(b, '}'))
}

// serveStdio answers newline-delimited JSON-RPC; each request runs on its
// own goroutine so a slow page does not block the rest.
func (s *server) serveStdio() {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	out := bufio.NewWriter(os.Stdout)
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			wg.Add(1)
			go func(line []byte) {
				defer wg.Done()
				if resp := s.handle(ctx, line); resp != nil {
					mu.Lock()
					out.Write(resp)
					out.WriteByte('\n')
					out.Flush()
					mu.Unlock()
				}
			}(line)
		}
		if err != nil {
			cancel()
			wg.Wait()
			return
		}
	}
}

func (s *server) serveHTTP(addr string, sse bool) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		data, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		resp := s.handle(r.Context(), data)
		if resp == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		if sse {
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprintf(w, "event: message\r\ndata: %s\r\n\r\n", resp)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(resp)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin) // the parent closes stdin to stop us
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}
