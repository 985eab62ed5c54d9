package wire

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptrace"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/relavium/relavium/engine/sanitize"
)

// recentExchanges is how many HTTP exchanges a Hub keeps (the network
// view's ring; exchanges are never written to a recording file).
const recentExchanges = 512

// Exchange is one HTTP exchange of a network server: a POST of messages,
// a GET of a stream, a DELETE of a session, a websocket handshake. It holds
// no header value but the two the protocol defines for the client to see
// (MCP-Protocol-Version, the server's Mcp-Session-Id shortened) and the
// response's Content-Type: a request's other headers, the person's static
// headers and tokens included, are named only.
type Exchange struct {
	Seq    int64     `json:"seq"`
	Time   time.Time `json:"time"`
	Server string    `json:"server"`
	// Method is the HTTP method, RPC the JSON-RPC method a POST carried
	// ("batch" for several; "" when not read).
	Method string `json:"method"`
	RPC    string `json:"rpc,omitempty"`
	// URL is the endpoint, redacted like the messages (its query removed,
	// secret values replaced) and sanitized.
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
	Err    string `json:"error,omitempty"`
	// Timings, in microseconds from the start of the exchange to the end
	// of each phase (0: the phase did not happen, e.g. a reused
	// connection has no DNS, connect or TLS); the total runs to the
	// response's headers or the error (a stream's body goes on after).
	DNSMicros       int64 `json:"dns_us,omitempty"`
	ConnectMicros   int64 `json:"connect_us,omitempty"`
	TLSMicros       int64 `json:"tls_us,omitempty"`
	FirstByteMicros int64 `json:"first_byte_us,omitempty"`
	TotalMicros     int64 `json:"total_us"`
	Reused          bool  `json:"reused,omitempty"`
	// SessionID is the Mcp-Session-Id (the server's answer, else the
	// request's), shortened to its first 8 characters: enough to see a
	// session change, not enough to take it over.
	SessionID       string `json:"session_id,omitempty"`
	ProtocolVersion string `json:"protocol_version,omitempty"`
	ContentType     string `json:"content_type,omitempty"`
	// Headers names the request's other headers; their values never.
	Headers []string `json:"headers,omitempty"`
}

// Exchanges returns the HTTP exchanges kept (the last 512), oldest first.
func (h *Hub) Exchanges() []Exchange {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.exchanges)
}

// Version is the sequence of the newest Record and of the newest Exchange:
// a view that polls redraws only when one moved.
func (h *Hub) Version() (records, exchanges int64) {
	if h == nil {
		return 0, 0
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.seq, h.xseq
}

func (h *Hub) addExchange(x Exchange) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.xseq++
	x.Seq = h.xseq
	if len(h.exchanges) >= recentExchanges {
		copy(h.exchanges, h.exchanges[1:])
		h.exchanges = h.exchanges[:len(h.exchanges)-1]
	}
	h.exchanges = append(h.exchanges, x)
}

// Exchanges taps an HTTP client's exchanges for the network view: status,
// the phases' timings (net/http/httptrace), the protocol's headers. It
// should sit inside whatever adds headers (so it sees which were sent) and
// outside the guard's transport (which dials).
func (r *Recorder) Exchanges(base http.RoundTripper) http.RoundTripper {
	if r == nil {
		return base
	}
	return &exchangeTap{r: r, base: base}
}

type exchangeTap struct {
	r    *Recorder
	base http.RoundTripper
}

// maxRPCPeek bounds the POST body read to name its JSON-RPC method.
const maxRPCPeek = 1 << 20

func (t *exchangeTap) RoundTrip(req *http.Request) (*http.Response, error) {
	rpc := ""
	if req.Method == http.MethodPost && req.GetBody != nil && req.ContentLength > 0 && req.ContentLength <= maxRPCPeek {
		if body, err := req.GetBody(); err == nil {
			data, _ := io.ReadAll(io.LimitReader(body, maxRPCPeek))
			body.Close()
			rpc = rpcMethod(data)
		}
	}
	ctx, done := t.r.Trace(req.Context(), req.Method, req.URL.String())
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	done(req.Header, resp, err, rpc)
	return resp, err
}

// Trace starts timing one exchange: ctx carries the httptrace hooks (give
// it to the request or the websocket dial), and done records the exchange
// with what was sent and what came back. A nil Recorder returns ctx and a
// done that does nothing.
func (r *Recorder) Trace(ctx context.Context, method, url string) (context.Context, func(sent http.Header, resp *http.Response, err error, rpc string)) {
	if r == nil {
		return ctx, func(http.Header, *http.Response, error, string) {}
	}
	start := r.hub.now()
	x := Exchange{Time: start.UTC(), Server: r.server, Method: method, URL: r.redactURL(url)}
	var mu sync.Mutex
	since := func(dst *int64) {
		mu.Lock()
		*dst = max(r.hub.now().Sub(start).Microseconds(), 1)
		mu.Unlock()
	}
	trace := &httptrace.ClientTrace{
		DNSDone:              func(httptrace.DNSDoneInfo) { since(&x.DNSMicros) },
		ConnectDone:          func(string, string, error) { since(&x.ConnectMicros) },
		TLSHandshakeDone:     func(tls.ConnectionState, error) { since(&x.TLSMicros) },
		GotFirstResponseByte: func() { since(&x.FirstByteMicros) },
		GotConn: func(info httptrace.GotConnInfo) {
			mu.Lock()
			x.Reused = info.Reused
			mu.Unlock()
		},
	}
	return httptrace.WithClientTrace(ctx, trace), func(sent http.Header, resp *http.Response, err error, rpc string) {
		mu.Lock()
		out := x
		mu.Unlock()
		out.TotalMicros = max(r.hub.now().Sub(start).Microseconds(), 0)
		out.RPC = rpc
		out.ProtocolVersion = sanitize.Line(cutTo(sent.Get("Mcp-Protocol-Version"), 32))
		out.SessionID = sent.Get("Mcp-Session-Id")
		out.Headers = headerNames(sent)
		if err != nil {
			out.Err = sanitize.Line(cutTo(r.redactText(err.Error()), 300))
		}
		if resp != nil {
			out.Status = resp.StatusCode
			out.ContentType = sanitize.Line(cutTo(resp.Header.Get("Content-Type"), 80))
			if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
				out.SessionID = id
			}
		}
		out.SessionID = shortID(out.SessionID)
		r.hub.addExchange(out)
	}
}

// protocolHeaders are the headers whose values an Exchange holds itself
// (Content-Type and Accept carry no secret and say nothing new).
var protocolHeaders = map[string]bool{"Mcp-Protocol-Version": true, "Mcp-Session-Id": true, "Content-Type": true, "Accept": true}

// headerNames names the request's other headers, sorted; never a value.
func headerNames(h http.Header) []string {
	var names []string
	for k := range h {
		if !protocolHeaders[http.CanonicalHeaderKey(k)] {
			names = append(names, sanitize.Line(cutTo(k, 64)))
		}
	}
	slices.Sort(names)
	return names
}

// shortID is a session id's first 8 characters, sanitized.
func shortID(id string) string {
	r := []rune(sanitize.Line(cutTo(id, 256)))
	if len(r) > 8 {
		return string(r[:8]) + "…"
	}
	return string(r)
}

func cutTo(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

func (r *Recorder) redactText(s string) string {
	if r.redact != nil {
		return r.redact(s)
	}
	return s
}

// redactURL is an endpoint as an Exchange holds it: the connection's
// redaction, then no query or user info whatever the redaction left.
func (r *Recorder) redactURL(u string) string {
	u = r.redactText(u)
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		if at := strings.LastIndex(rest, "@"); at >= 0 && at < strings.IndexByte(rest+"/", '/') {
			rest = "[redacted]@" + rest[at+1:]
		}
		u = scheme + "://" + rest
	}
	return sanitize.Line(cutTo(u, 512))
}

// rpcMethod names the JSON-RPC method of a POST body: the method, "batch"
// for several messages, "" when it is not one message.
func rpcMethod(body []byte) string {
	b := trimSpace(body)
	if len(b) > 0 && b[0] == '[' {
		return "batch"
	}
	var rec Record
	if !classify(&rec, b) {
		return ""
	}
	if rec.Method == "" {
		return rec.Kind // a response the client sends (to a server's request)
	}
	return sanitize.Line(cutTo(rec.Method, 128))
}
