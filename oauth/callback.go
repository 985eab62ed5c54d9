package oauth

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// callbackPath is where the authorization server sends the browser back.
const callbackPath = "/callback"

// callbackResult is what the redirect carried.
type callbackResult struct {
	code, state, iss  string
	errCode, errDescr string
}

// maxCallbackQuery bounds the redirect's query: a code, a state, an issuer
// and an error description fit in far less.
const maxCallbackQuery = 8 << 10

// listener is the loopback redirect listener of one sign-in: bound to
// 127.0.0.1 only (an ephemeral port unless the client is pre-registered with
// callback_port), it takes exactly one callback whose state matches, then
// closes. Anything else on the port is answered and ignored: another path
// or method 404, another state or an oversized query 400 (the listener goes
// on waiting for the real redirect until its deadline), the right state a
// second time 409, never "signed in".
type listener struct {
	ln      net.Listener
	srv     *http.Server
	state   string
	got     chan callbackResult
	taken   atomic.Bool  // the callback with the right state has been taken
	refused atomic.Int32 // callbacks refused for another state or an oversized query
	once    sync.Once
	done    chan struct{}
}

// listen opens the listener; port 0 is an ephemeral port.
func listen(port int, state string) (*listener, error) {
	ln, err := net.Listen("tcp4", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return nil, wrapErr(CodeListener, err, "the loopback callback listener could not be opened on 127.0.0.1:%d", port)
	}
	l := &listener{ln: ln, state: state, got: make(chan callbackResult, 1), done: make(chan struct{})}
	l.srv = &http.Server{Handler: http.HandlerFunc(l.serve), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 64 << 10}
	go func() {
		defer close(l.done)
		_ = l.srv.Serve(ln)
	}()
	return l, nil
}

// redirectURL is the redirect_uri of this sign-in.
func (l *listener) redirectURL() string {
	return "http://" + l.ln.Addr().String() + callbackPath
}

func (l *listener) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != callbackPath || r.Method != http.MethodGet {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if len(r.URL.RawQuery) > maxCallbackQuery {
		l.refused.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, "relavium: this redirect is larger than a sign-in's; nothing was done.")
		return
	}
	q := r.URL.Query()
	res := callbackResult{code: q.Get("code"), state: q.Get("state"), iss: q.Get("iss"), errCode: q.Get("error"), errDescr: q.Get("error_description")}
	if subtle.ConstantTimeCompare([]byte(res.state), []byte(l.state)) != 1 {
		// Not this sign-in's redirect (or a forged one): refused, and the
		// listener goes on waiting for the real one until its deadline.
		l.refused.Add(1)
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, "relavium: this is not the sign-in relavium is waiting for (state mismatch); nothing was done.")
		return
	}
	if !l.taken.CompareAndSwap(false, true) {
		w.WriteHeader(http.StatusConflict)
		fmt.Fprintln(w, "relavium: this sign-in's redirect was already received; nothing more was done.")
		return
	}
	if res.errCode != "" {
		fmt.Fprintln(w, "relavium: the authorization server refused the sign-in. You can close this tab.")
	} else {
		fmt.Fprintln(w, "relavium: signed in. You can close this tab and return to the terminal.")
	}
	l.got <- res // buffered for the one callback taken
}

// wait returns the callback with the right state, or fails: the timeout
// (E860; E857 when only redirects with another state came) or cancellation
// (E861).
func (l *listener) wait(ctx context.Context, timeout time.Duration) (callbackResult, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case res := <-l.got:
		return res, nil
	case <-t.C:
		if n := l.refused.Load(); n > 0 {
			return callbackResult{}, newErr(CodeState, "%d redirect(s) to the callback carried another state than the one relavium sent (or were oversized) and were refused; none with the right state came within %s", n, timeout)
		}
		return callbackResult{}, newErr(CodeCallbackTimeout, "no redirect reached the callback within %s", timeout)
	case <-ctx.Done():
		err := context.Cause(ctx)
		if errors.Is(err, context.DeadlineExceeded) {
			return callbackResult{}, wrapErr(CodeCallbackTimeout, err, "the sign-in ran out of time waiting for the browser")
		}
		return callbackResult{}, wrapErr(CodeCancelled, err, "sign-in cancelled")
	}
}

// close stops the listener and waits for its server goroutine.
func (l *listener) close() {
	l.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = l.srv.Shutdown(ctx)
		<-l.done
	})
}
