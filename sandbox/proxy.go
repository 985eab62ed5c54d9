package sandbox

import (
	"bufio"
	"context"

	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Dial opens a tunnel's upstream connection to target (host:port), or
// refuses it; relavium's is the network guard.
type Dial func(ctx context.Context, target string) (net.Conn, error)

// Proxy is the guarded network's HTTP CONNECT proxy on loopback: the one
// place a server with network "guarded" can connect to (Landlock allows
// its port and no other). Only CONNECT is served, so every target is a
// host:port the dial function admits before anything is sent.
type Proxy struct {
	ln     net.Listener
	dial   Dial
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// maxRequestHead bounds a CONNECT request's head.
const maxRequestHead = 16 << 10

// StartProxy listens on 127.0.0.1 on a port of the kernel's choosing and
// serves until Close or ctx ends.
func StartProxy(ctx context.Context, dial Dial) (*Proxy, error) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	pctx, cancel := context.WithCancel(ctx)
	p := &Proxy{ln: ln, dial: dial, ctx: pctx, cancel: cancel, conns: map[net.Conn]struct{}{}}
	p.wg.Add(2)
	go func() {
		defer p.wg.Done()
		<-pctx.Done()
		_ = ln.Close()
		p.closeAll()
	}()
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if !p.track(c) {
				_ = c.Close()
				return
			}
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				defer p.untrack(c)
				p.serve(c)
			}()
		}
	}()
	return p, nil
}

// Port is the proxy's port on 127.0.0.1.
func (p *Proxy) Port() uint16 { return uint16(p.ln.Addr().(*net.TCPAddr).Port) }

// Close stops the proxy and every tunnel, and returns once all are gone.
func (p *Proxy) Close() {
	p.cancel()
	p.wg.Wait()
}

func (p *Proxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ctx.Err() != nil {
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	_ = c.Close()
}

func (p *Proxy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		_ = c.Close()
	}
}

// serve reads one CONNECT request, asks dial for the target and splices
// the two connections until either side ends.
func (p *Proxy) serve(c net.Conn) {
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReaderSize(io.LimitReader(c, maxRequestHead), 4096)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	if req.Method != http.MethodConnect {
		reply(c, http.StatusMethodNotAllowed, "relavium's guarded network proxies HTTPS (CONNECT) only: plain http is not forwarded")
		return
	}
	target := req.Host
	if _, port, err := net.SplitHostPort(target); err != nil || port == "" {
		reply(c, http.StatusBadRequest, "CONNECT needs host:port")
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	up, err := p.dial(ctx, target)
	cancel()
	if err != nil {
		reply(c, http.StatusForbidden, fmt.Sprintf("%s: relavium's network guard refused %s: %s", CodeGuarded, target, oneLine(err.Error())))
		return
	}
	if !p.track(up) {
		_ = up.Close()
		return
	}
	defer p.untrack(up)
	_ = c.SetReadDeadline(time.Time{})
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() {
		// What the client sent after its request head is already buffered.
		if n := br.Buffered(); n > 0 {
			b, _ := br.Peek(n)
			_, _ = up.Write(b)
		}
		_, _ = io.Copy(up, c)
		closeWrite(up)
		done <- struct{}{}
	}()
	_, _ = io.Copy(c, up)
	closeWrite(c)
	<-done
}

func closeWrite(c net.Conn) {
	if tc, ok := c.(interface{ CloseWrite() error }); ok {
		_ = tc.CloseWrite()
		return
	}
	_ = c.Close()
}

func reply(c net.Conn, status int, msg string) {
	_, _ = fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), len(msg), msg)
}

func oneLine(s string) string {
	s = strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
