package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/netguard"
)

// testAS is a loopback MCP resource and authorization server in one
// origin: protected-resource and authorization-server metadata, /register,
// /token (authorization_code and refresh_token). prm and asm may be
// rewritten by a test to point elsewhere.
type testAS struct {
	srv      *httptest.Server
	mu       sync.Mutex
	prm      map[string]any
	asm      map[string]any
	tokens   atomic.Int32 // token requests
	refresh  atomic.Int32 // refresh_token grants
	expires  atomic.Int32 // the expires_in of issued tokens
	verifier atomic.Bool  // the last code exchange carried a code_verifier
	resource atomic.Value
	answer   atomic.Value // func(n int32) string: the token endpoint's body, when set
	appType  atomic.Value // the application_type of the last registration
	form     atomic.Value // url.Values of the last token request
	basic    atomic.Value // [2]string: the last token request's basic auth, if any
	// refreshResource is the resource of the last refresh_token grant.
	refreshResource atomic.Value
	// sdkRouter makes /register and /token answer as the TypeScript SDK's
	// auth router does: a secret and no token_endpoint_auth_method, and a
	// token request without client_id in its body refused.
	sdkRouter atomic.Bool
}

func newTestAS(t *testing.T) *testAS {
	a := &testAS{}
	a.expires.Store(3600)
	mux := http.NewServeMux()
	a.srv = httptest.NewServer(mux)
	t.Cleanup(a.srv.Close)
	base := a.srv.URL
	a.prm = map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}, "scopes_supported": []string{"mcp:read"}}
	a.asm = map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
		"registration_endpoint": base + "/register", "code_challenge_methods_supported": []string{"S256"}, "response_types_supported": []string{"code"}}
	doc := func(get func() map[string]any) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			a.mu.Lock()
			b, _ := json.Marshal(get())
			a.mu.Unlock()
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(b)
		}
	}
	mux.HandleFunc("/.well-known/oauth-protected-resource/mcp", doc(func() map[string]any { return a.prm }))
	mux.HandleFunc("/.well-known/oauth-authorization-server", doc(func() map[string]any { return a.asm }))
	// /hop/.well-known/... redirects to the cloud metadata address: the
	// guard refuses the 3xx and follows nothing.
	mux.HandleFunc("/.well-known/oauth-authorization-server/hop", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data", http.StatusFound)
	})
	mux.HandleFunc("/register", func(w http.ResponseWriter, r *http.Request) {
		var reg struct {
			ApplicationType string `json:"application_type"`
		}
		_ = json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&reg)
		a.appType.Store(reg.ApplicationType)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		if a.sdkRouter.Load() {
			_, _ = io.WriteString(w, `{"client_id":"dyn-client","client_secret":"secret-dyn","client_secret_expires_at":0}`)
			return
		}
		_, _ = io.WriteString(w, `{"client_id":"dyn-client","token_endpoint_auth_method":"none"}`)
	})
	mux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		a.form.Store(r.Form)
		if u, p, ok := r.BasicAuth(); ok {
			a.basic.Store([2]string{u, p})
		}
		if a.sdkRouter.Load() && (r.PostForm.Get("client_id") != "dyn-client" || r.PostForm.Get("client_secret") != "secret-dyn") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":"invalid_request","error_description":"client_id and client_secret in the body"}`)
			return
		}
		n := a.tokens.Add(1)
		if r.Form.Get("grant_type") == "refresh_token" {
			a.refresh.Add(1)
			a.refreshResource.Store(r.Form.Get("resource"))
		} else {
			a.verifier.Store(r.Form.Get("code_verifier") != "")
			a.resource.Store(r.Form.Get("resource"))
		}
		w.Header().Set("Content-Type", "application/json")
		if f, ok := a.answer.Load().(func(int32) string); ok {
			_, _ = io.WriteString(w, f(n))
			return
		}
		fmt.Fprintf(w, `{"access_token":"secret-access-%d","refresh_token":"secret-refresh-%d","token_type":"Bearer","expires_in":%d,"scope":"mcp:read"}`, n, n, a.expires.Load())
	})
	return a
}

func (a *testAS) set(f func()) {
	a.mu.Lock()
	defer a.mu.Unlock()
	f()
}

// recordingDialer dials for real and records every address the guard let
// it dial.
type recordingDialer struct {
	mu    sync.Mutex
	addrs []string
	d     net.Dialer
}

func (r *recordingDialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	r.mu.Lock()
	r.addrs = append(r.addrs, address)
	r.mu.Unlock()
	return r.d.DialContext(ctx, network, address)
}

func (r *recordingDialer) dialled() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.addrs...)
}

// fakeResolver answers evil.test with the cloud metadata address and
// everything else through the system.
type fakeResolver struct{}

func (fakeResolver) LookupNetIP(ctx context.Context, network, host string) ([]netipAddr, error) {
	if host == "evil.test" {
		return []netipAddr{mustAddr("169.254.169.254")}, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, network, host)
}

// browserDoing returns an Interactive whose "browser" delivers the redirect
// with edit applied to the callback's query (nil: as an authorization
// server would).
func browserDoing(t *testing.T, edit func(q url.Values)) *Interactive {
	return &Interactive{Wait: 10 * time.Second, Prompt: func(ctx context.Context, p Prompt) (func(), error) {
		u, err := url.Parse(p.URL)
		if err != nil {
			return nil, err
		}
		q := u.Query()
		cb, _ := url.Parse(q.Get("redirect_uri"))
		if !strings.HasPrefix(cb.Host, "127.0.0.1:") {
			t.Errorf("redirect_uri %s is not on 127.0.0.1", cb)
		}
		if q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "" || q.Get("resource") == "" {
			t.Errorf("authorization url lacks PKCE S256 or resource: %s", p.URL)
		}
		cq := url.Values{"code": {"the-code"}, "state": {q.Get("state")}}
		if edit != nil {
			edit(cq)
		}
		cb.RawQuery = cq.Encode()
		done := make(chan struct{})
		go func() {
			defer close(done)
			resp, err := http.Get(cb.String())
			if err == nil {
				_ = resp.Body.Close()
			}
		}()
		return func() { <-done }, nil
	}}
}

type fixture struct {
	as    *testAS
	dial  *recordingDialer
	home  string
	store *Store
	now   time.Time
}

func newFixture(t *testing.T) *fixture {
	f := &fixture{as: newTestAS(t), dial: &recordingDialer{}, home: t.TempDir(), now: time.Now()}
	f.store = NewStore(f.home)
	return f
}

func (f *fixture) handler(in *Interactive, set Settings) *Handler {
	g := netguard.New(netguard.WithDialer(f.dial), netguard.WithResolver(fakeResolver{}))
	return New(Options{Server: "srv", URL: f.as.srv.URL + "/mcp", AllowLocal: true, Settings: set, Guard: g,
		Store: f.store, Interactive: in, Now: func() time.Time { return f.now }})
}

// unauthorized is the server's 401 with a Bearer challenge.
func (f *fixture) unauthorized(status int, params string) (*http.Request, *http.Response) {
	req, _ := http.NewRequest(http.MethodPost, f.as.srv.URL+"/mcp", nil)
	resp := &http.Response{StatusCode: status, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(""))}
	resp.Header.Set("WWW-Authenticate", `Bearer resource_metadata="`+f.as.srv.URL+`/.well-known/oauth-protected-resource/mcp"`+params)
	return req, resp
}

func codeOf(err error) fault.Code { return fault.CodeOf(err, "") }

func TestSignInStoresTokensPrivatelyAndRefreshes(t *testing.T) {
	f := newFixture(t)
	h := f.handler(browserDoing(t, nil), Settings{})
	defer h.Close()
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatalf("Authorize: %v", err)
	}
	if !f.as.verifier.Load() || f.as.resource.Load() != f.as.srv.URL+"/mcp" {
		t.Fatalf("token request lacked code_verifier or resource (verifier %v, resource %v)", f.as.verifier.Load(), f.as.resource.Load())
	}
	if got := f.as.appType.Load(); got != "native" {
		t.Fatalf("dynamic registration sent application_type %v, want native (a loopback redirect)", got)
	}
	ts, err := h.TokenSource(context.Background())
	if err != nil || ts == nil {
		t.Fatalf("TokenSource: %v, %v", ts, err)
	}
	tok, err := ts.Token()
	if err != nil || tok.AccessToken != "secret-access-1" {
		t.Fatalf("token %v, %v", tok, err)
	}
	// Modes: a 0700 directory, 0600 files.
	st, err := os.Stat(f.store.Dir)
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("store dir mode %v, %v", st.Mode().Perm(), err)
	}
	files, _ := filepath.Glob(filepath.Join(f.store.Dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("want one record file, got %v", files)
	}
	fi, _ := os.Stat(files[0])
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("record mode %04o, want 0600", fi.Mode().Perm())
	}
	// Expired: the next token is a refresh, stored.
	f.now = f.now.Add(2 * time.Hour)
	tok, err = ts.Token()
	if err != nil || tok.AccessToken != "secret-access-2" || f.as.refresh.Load() != 1 {
		t.Fatalf("after expiry: token %v, err %v, refreshes %d", tok, err, f.as.refresh.Load())
	}
	if got := f.as.refreshResource.Load(); got != f.as.srv.URL+"/mcp" {
		t.Fatalf("the refresh carried resource %v, want the server (RFC 8707)", got)
	}
	rec, err := f.store.Find(f.as.srv.URL + "/mcp")
	if err != nil || rec.AccessToken != "secret-access-2" || rec.RefreshToken != "secret-refresh-2" {
		t.Fatalf("stored after refresh: %+v, %v", rec, err)
	}
	// A fresh headless handler (another process) uses the stored token
	// (the token endpoint stamped its expiry on the real clock).
	f.now = time.Now()
	h2 := f.handler(nil, Settings{})
	ts2, _ := h2.TokenSource(context.Background())
	if tok, _ := ts2.Token(); tok == nil || tok.AccessToken != "secret-access-2" {
		t.Fatalf("headless handler token %v", tok)
	}
	// What may be shown never holds a token.
	list, err := f.store.List()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(list)
	if strings.Contains(string(b), "secret-") || len(list) != 1 || list[0].Issuer != f.as.srv.URL || !list[0].Refresh {
		t.Fatalf("summary %s", b)
	}
}

// A token that lives less than twice the refresh margin (the 2 s tokens of
// the interop suite's mcpAuthRouter server) is refreshed at half its life,
// not on every request; a long-lived one still expiryMargin early.
func TestShortLivedTokenIsNotRefreshedOnEveryRequest(t *testing.T) {
	f := newFixture(t)
	f.as.expires.Store(2)
	h := f.handler(browserDoing(t, nil), Settings{})
	defer h.Close()
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatalf("Authorize: %v", err)
	}
	ts, err := h.TokenSource(context.Background())
	if err != nil || ts == nil {
		t.Fatalf("TokenSource: %v, %v", ts, err)
	}
	for range 3 {
		if tok, err := ts.Token(); err != nil || tok.AccessToken != "secret-access-1" {
			t.Fatalf("a fresh 2 s token: %v, %v", tok, err)
		}
	}
	if n := f.as.refresh.Load(); n != 0 {
		t.Fatalf("a fresh 2 s token was refreshed %d times", n)
	}
	f.now = f.now.Add(3 * time.Second) // past its life
	if tok, err := ts.Token(); err != nil || tok.AccessToken != "secret-access-2" || f.as.refresh.Load() != 1 {
		t.Fatalf("after its life: %v, %v, refreshes %d", tok, err, f.as.refresh.Load())
	}
	// An hour-long token is refreshed expiryMargin before it expires.
	f.as.expires.Store(3600)
	f.now = time.Now()
	rec, err := f.store.Find(f.as.srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	rec.Expiry, rec.Updated = f.now.Add(time.Hour), f.now
	if err := f.store.Save(rec, f.now); err != nil {
		t.Fatal(err)
	}
	h2 := f.handler(nil, Settings{})
	defer h2.Close()
	ts2, _ := h2.TokenSource(context.Background())
	f.now = rec.Expiry.Add(-expiryMargin - time.Second)
	if tok, _ := ts2.Token(); tok == nil || tok.AccessToken != "secret-access-2" || f.as.refresh.Load() != 1 {
		t.Fatalf("outside the margin: %v, refreshes %d", tok, f.as.refresh.Load())
	}
	f.now = rec.Expiry.Add(-expiryMargin + time.Second)
	if tok, _ := ts2.Token(); tok == nil || tok.AccessToken != "secret-access-3" || f.as.refresh.Load() != 2 {
		t.Fatalf("inside the margin: %v, refreshes %d", tok, f.as.refresh.Load())
	}
}

func TestHeadlessNamesAuthLogin(t *testing.T) {
	f := newFixture(t)
	h := f.handler(nil, Settings{})
	req, resp := f.unauthorized(401, "")
	err := h.Authorize(context.Background(), req, resp)
	if codeOf(err) != CodeSignInRequired || fault.ExitOf(err) != 2 || !strings.Contains(err.Error(), "relavium auth login srv") {
		t.Fatalf("headless 401: %v (exit %d)", err, fault.ExitOf(err))
	}
	if f.as.tokens.Load() != 0 {
		t.Fatal("headless sent a token request")
	}
	// Declared oauth and nothing stored: refused before anything is sent.
	h = f.handler(nil, Settings{Declared: true})
	if _, err := h.TokenSource(context.Background()); codeOf(err) != CodeSignInRequired {
		t.Fatalf("declared, no token: %v", err)
	}
}

func TestStepUpNeverAgainForGrantedScopes(t *testing.T) {
	f := newFixture(t)
	h := f.handler(browserDoing(t, nil), Settings{})
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatal(err)
	}
	tok, _ := h.token(context.Background())
	req, resp = f.unauthorized(403, `, error="insufficient_scope", scope="mcp:read"`)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeScopeRefused {
		t.Fatalf("403 for a granted scope: %v", err)
	}
	// Headless, a new scope is E851 and is remembered as wanted.
	hh := f.handler(nil, Settings{})
	req, resp = f.unauthorized(403, `, error="insufficient_scope", scope="mcp:read mcp:write"`)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	err := hh.Authorize(context.Background(), req, resp)
	if codeOf(err) != CodeStepUpRequired || fault.ExitOf(err) != 2 {
		t.Fatalf("headless step-up: %v", err)
	}
	rec, _ := f.store.Find(f.as.srv.URL + "/mcp")
	if rec == nil || strings.Join(rec.Wanted, " ") != "mcp:read mcp:write" {
		t.Fatalf("wanted scopes not stored: %+v", rec)
	}
}

func TestStateMismatchIsRefused(t *testing.T) {
	f := newFixture(t)
	in := browserDoing(t, func(q url.Values) { q.Set("state", "forged") })
	in.Wait = 200 * time.Millisecond
	h := f.handler(in, Settings{})
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeState {
		t.Fatalf("forged state: %v", err)
	}
	if f.as.tokens.Load() != 0 {
		t.Fatal("a code with a forged state was exchanged")
	}
}

func TestIssuerMismatchIsRefused(t *testing.T) {
	f := newFixture(t)
	f.as.set(func() { f.as.asm["authorization_response_iss_parameter_supported"] = true })
	h := f.handler(browserDoing(t, func(q url.Values) { q.Set("iss", "https://attacker.example") }), Settings{})
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeIssuer {
		t.Fatalf("wrong iss: %v", err)
	}
	// The issuer with a trailing slash is another issuer: compared exactly.
	h = f.handler(browserDoing(t, func(q url.Values) { q.Set("iss", f.as.srv.URL+"/") }), Settings{})
	req, resp = f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeIssuer {
		t.Fatalf("iss with a trailing slash: %v", err)
	}
	// Advertised but absent is refused too.
	h = f.handler(browserDoing(t, nil), Settings{})
	req, resp = f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeIssuer {
		t.Fatalf("missing iss: %v", err)
	}
	if f.as.tokens.Load() != 0 {
		t.Fatal("a code from a mixed-up issuer was exchanged")
	}
}

func silentBrowser(wait time.Duration) *Interactive {
	return &Interactive{Wait: wait, Prompt: func(context.Context, Prompt) (func(), error) { return nil, nil }}
}

func TestAbsentCallbackTimesOutAndCancelEnds(t *testing.T) {
	f := newFixture(t)
	h := f.handler(silentBrowser(50*time.Millisecond), Settings{})
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeCallbackTimeout {
		t.Fatalf("no callback: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	h = f.handler(&Interactive{Wait: time.Hour, Prompt: func(context.Context, Prompt) (func(), error) {
		cancel() // the person gives up
		return nil, nil
	}}, Settings{})
	req, resp = f.unauthorized(401, "")
	if err := h.Authorize(ctx, req, resp); codeOf(err) != CodeCancelled {
		t.Fatalf("cancelled: %v", err)
	}
	// The listener is closed: nothing listens on the callback any more.
	if f.as.tokens.Load() != 0 {
		t.Fatal("token requested without a callback")
	}
}

func TestMaliciousMetadataIsRefusedBeforeAnyRequest(t *testing.T) {
	cases := []struct {
		name string
		edit func(a *testAS)
		code fault.Code
		bad  string
	}{
		{"prm names the metadata endpoint", func(a *testAS) { a.prm["authorization_servers"] = []string{"http://169.254.169.254/latest"} }, netguard.CodeMetadata, "169.254.169.254"},
		{"prm names a private address", func(a *testAS) { a.prm["authorization_servers"] = []string{"http://10.1.2.3:8080"} }, netguard.CodePrivateAddress, "10.1.2.3"},
		{"prm names a name resolving to metadata", func(a *testAS) { a.prm["authorization_servers"] = []string{"https://evil.test"} }, netguard.CodeMetadata, "169.254.169.254"},
		{"token endpoint on another loopback port", func(a *testAS) { a.asm["token_endpoint"] = "http://127.0.0.1:1/token" }, netguard.CodePrivateAddress, "127.0.0.1:1"},
		{"metadata that redirects to the metadata address", func(a *testAS) {
			a.prm["authorization_servers"] = []string{a.srv.URL + "/hop"}
		}, netguard.CodeRedirect, "169.254.169.254"},
		{"registration endpoint at the metadata address", func(a *testAS) { a.asm["registration_endpoint"] = "http://[::ffff:169.254.169.254]/register" }, netguard.CodeMetadata, "169.254"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.as.set(func() { c.edit(f.as) })
			h := f.handler(browserDoing(t, nil), Settings{})
			req, resp := f.unauthorized(401, "")
			err := h.Authorize(context.Background(), req, resp)
			if codeOf(err) != c.code {
				t.Fatalf("want %s, got %v", c.code, err)
			}
			var r *netguard.Error
			if !errors.As(err, &r) {
				t.Fatalf("not the guard's refusal: %T %v", err, err)
			}
			own := strings.TrimPrefix(f.as.srv.URL, "http://")
			for _, a := range f.dial.dialled() {
				if a != own {
					t.Fatalf("a connection was opened to %s (only %s may be dialled)", a, own)
				}
			}
			if f.as.tokens.Load() != 0 {
				t.Fatal("a token request was sent")
			}
		})
	}
}

func TestStoreRefusesAReachableDirectory(t *testing.T) {
	home := t.TempDir()
	s := NewStore(home)
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := s.Save(&Record{URL: "https://x.example/mcp", Issuer: "https://as.example"}, time.Now()); codeOf(err) != CodeStore {
		t.Fatalf("save into a 0755 store: %v", err)
	}
	_ = os.Chmod(s.Dir, 0o700)
	if err := s.Save(&Record{URL: "https://x.example/mcp", Issuer: "https://as.example", AccessToken: "secret-x"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(s.Dir, "*.json"))
	_ = os.Chmod(files[0], 0o644)
	if _, err := s.Find("https://x.example/mcp"); codeOf(err) != CodeStore || strings.Contains(err.Error(), "secret-x") || !strings.Contains(err.Error(), "0644") {
		t.Fatalf("a 0644 record: %v", err)
	}
	if list, err := s.List(); err != nil || len(list) != 1 || !strings.Contains(list[0].Unreadable, "0644") {
		t.Fatalf("auth ls of a 0644 record: %+v %v", list, err)
	}
	_ = os.Chmod(files[0], 0o600)
	if n, err := s.Remove("https://x.example/mcp"); n != 1 || err != nil {
		t.Fatalf("remove: %d %v", n, err)
	}
	if _, err := os.Stat(files[0]); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("record left behind: %v", err)
	}
}

// A pre-registered client with a callback port gets exactly that port in
// its redirect uri, and its secret from the secret store.
func TestPreRegisteredClientUsesItsPort(t *testing.T) {
	f := newFixture(t)
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	var redirect string
	in := browserDoing(t, nil)
	inner := in.Prompt
	in.Prompt = func(ctx context.Context, p Prompt) (func(), error) {
		u, _ := url.Parse(p.URL)
		redirect = u.Query().Get("redirect_uri")
		if u.Query().Get("client_id") != "pre" {
			t.Errorf("client_id %q, want the pre-registered one", u.Query().Get("client_id"))
		}
		return inner(ctx, p)
	}
	h := f.handler(in, Settings{Declared: true, ClientID: "pre", ClientSecretName: "s", CallbackPort: port})
	h.o.Secret = func(name string) (string, bool, error) { return "pre-secret", name == "s", nil }
	if err := h.SignIn(context.Background()); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("http://127.0.0.1:%d/callback", port); redirect != want {
		t.Fatalf("redirect_uri %q, want %q", redirect, want)
	}
	rec, _ := f.store.Find(f.as.srv.URL + "/mcp")
	if rec == nil || rec.ClientID != "pre" || rec.ClientSecret != "" {
		t.Fatalf("record %+v: a pre-registered secret stays in the secret store", rec)
	}
}

// FuzzChallenge: any WWW-Authenticate header is read without a panic, and
// a scope it yields is never empty.
func FuzzChallenge(f *testing.F) {
	for _, s := range []string{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`,
		`Bearer error="insufficient_scope", scope="mcp:write"`, `Basic realm="x", Bearer`, `Bearer scope=""`, `,,=`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		resp := &http.Response{Header: http.Header{"Www-Authenticate": {h}}}
		c := parseChallenge(resp)
		for _, s := range c.scopes {
			if s == "" || strings.ContainsAny(s, " \t") {
				t.Fatalf("scope %q from %q", s, h)
			}
		}
	})
}

// An authorization server built on the TypeScript SDK's auth router: the
// registration answer names no token endpoint method, the metadata lists
// client_secret_post and none (not basic), and the token endpoint wants
// the client in the body. Sign-in and refresh both authenticate by post.
func TestSignInWithTheSDKRouterAuthenticatesByPost(t *testing.T) {
	f := newFixture(t)
	f.as.sdkRouter.Store(true)
	f.as.set(func() { f.as.asm["token_endpoint_auth_methods_supported"] = []string{"client_secret_post", "none"} })
	h := f.handler(browserDoing(t, nil), Settings{})
	defer h.Close()
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatalf("Authorize: %v", err)
	}
	ts, err := h.TokenSource(context.Background())
	if err != nil || ts == nil {
		t.Fatalf("TokenSource: %v", err)
	}
	f.now = f.now.Add(2 * time.Hour)
	if tok, err := ts.Token(); err != nil || tok.AccessToken != "secret-access-2" {
		t.Fatalf("refresh: %v %v", tok, err)
	}
	if got := f.as.refreshResource.Load(); got != f.as.srv.URL+"/mcp" {
		t.Fatalf("the refresh carried resource %v", got)
	}
}

// pickMethod takes only a method the server lists, basic first.
func TestPickMethod(t *testing.T) {
	for _, c := range []struct {
		listed []string
		secret bool
		want   string
	}{
		{nil, true, "client_secret_basic"},
		{[]string{"client_secret_post", "none"}, true, "client_secret_post"},
		{[]string{"client_secret_post", "client_secret_basic"}, true, "client_secret_basic"},
		{[]string{"none"}, true, "none"},
		{[]string{"client_secret_basic"}, false, "none"},
	} {
		if got := pickMethod(c.listed, c.secret); got != c.want {
			t.Errorf("pickMethod(%v, %v) = %s, want %s", c.listed, c.secret, got, c.want)
		}
	}
}
