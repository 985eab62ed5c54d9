package oauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// signIn signs the fixture's server in through its loopback authorization
// server.
func (f *fixture) signIn(t *testing.T) *Handler {
	t.Helper()
	h := f.handler(browserDoing(t, nil), Settings{})
	t.Cleanup(h.Close)
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatalf("sign-in: %v", err)
	}
	return h
}

func (f *fixture) url() string { return f.as.srv.URL + "/mcp" }

// storedToken is what a fresh headless handler (another process) sends.
func (f *fixture) storedToken(t *testing.T) (string, error) {
	t.Helper()
	h := f.handler(nil, Settings{})
	defer h.Close()
	ts, err := h.TokenSource(context.Background())
	if err != nil || ts == nil {
		return "", err
	}
	tok, err := ts.Token()
	if err != nil || tok == nil {
		return "", err
	}
	return tok.AccessToken, nil
}

// A hostile authorization server's 300 KiB token is refused with E868 and
// nothing is stored; the store keeps working for every other server.
func TestOversizedTokenIsRefusedAndNothingStored(t *testing.T) {
	good := newFixture(t)
	good.signIn(t)
	bad := newFixture(t)
	bad.store = good.store
	huge := strings.Repeat("A", 300<<10)
	bad.as.answer.Store(func(int32) string {
		return `{"access_token":"` + huge + `","refresh_token":"r","token_type":"Bearer","expires_in":3600}`
	})
	h := bad.handler(browserDoing(t, nil), Settings{})
	defer h.Close()
	req, resp := bad.unauthorized(401, "")
	err := h.Authorize(context.Background(), req, resp)
	if codeOf(err) != CodeOutOfBounds || strings.Contains(err.Error(), "AAAA") || !strings.Contains(err.Error(), "16 KiB") {
		t.Fatalf("a 300 KiB token: %v", err)
	}
	if rec, err := good.store.Find(bad.url()); rec != nil || err != nil {
		t.Fatalf("the refused sign-in left a record: %v %v", rec, err)
	}
	if tok, err := good.storedToken(t); err != nil || tok != "secret-access-1" {
		t.Fatalf("the other server's sign-in: %q %v", tok, err)
	}
	// Not printable ASCII is refused the same way.
	bad.as.answer.Store(func(int32) string { return `{"access_token":"a\u0000b","token_type":"Bearer"}` })
	req, resp = bad.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeOutOfBounds {
		t.Fatalf("a token with a NUL: %v", err)
	}
	// 200 distinct granted scopes are refused; a refresh that brings them
	// leaves the record as it was.
	scopes := make([]string, 200)
	for i := range scopes {
		scopes[i] = fmt.Sprintf("s%d", i)
	}
	bad.as.answer.Store(func(int32) string {
		return `{"access_token":"ok-token","token_type":"Bearer","scope":"` + strings.Join(scopes, " ") + `"}`
	})
	req, resp = bad.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); codeOf(err) != CodeOutOfBounds {
		t.Fatalf("200 granted scopes: %v", err)
	}
}

// A resource server's 403 with ~500 KB of scopes: repeated scopes are
// taken once (the step-up remembers three), too many distinct ones are
// refused (E868) and the stored sign-in stays readable and in use.
func TestStepUpScopesAreDedupedAndBounded(t *testing.T) {
	f := newFixture(t)
	h := f.signIn(t)
	tok, _ := h.token(context.Background())
	hh := f.handler(nil, Settings{})
	defer hh.Close()
	req, resp := f.unauthorized(403, `, error="insufficient_scope", scope="`+strings.Repeat("mcp:write mcp:admin mcp:read ", 18000)+`"`)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	if err := hh.Authorize(context.Background(), req, resp); codeOf(err) != CodeStepUpRequired {
		t.Fatalf("repeated scopes: %v", err)
	}
	rec, err := f.store.Find(f.url())
	if err != nil || strings.Join(rec.Wanted, " ") != "mcp:write mcp:admin mcp:read" {
		t.Fatalf("wanted %v, %v", rec, err)
	}
	many := make([]string, 20000)
	for i := range many {
		many[i] = fmt.Sprintf("scope-%d", i)
	}
	req, resp = f.unauthorized(403, `, error="insufficient_scope", scope="`+strings.Join(many, " ")+`"`)
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	if err := hh.Authorize(context.Background(), req, resp); codeOf(err) != CodeOutOfBounds {
		t.Fatalf("20 000 distinct scopes: %v", err)
	}
	rec, err = f.store.Find(f.url())
	if err != nil || len(rec.Wanted) != 3 {
		t.Fatalf("after the refused step-up: %v, %v", rec, err)
	}
	if got, err := f.storedToken(t); err != nil || got != tok.AccessToken {
		t.Fatalf("stored token after hostile 403s: %q %v", got, err)
	}
	// Step-ups that each ask for new scopes never grow wanted past the bound.
	for i := range 3 {
		batch := many[i*MaxScopes : (i+1)*MaxScopes]
		req, resp = f.unauthorized(403, `, error="insufficient_scope", scope="`+strings.Join(batch, " ")+`"`)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		if err := hh.Authorize(context.Background(), req, resp); codeOf(err) != CodeStepUpRequired {
			t.Fatalf("step-up %d: %v", i, err)
		}
	}
	rec, err = f.store.Find(f.url())
	if err != nil || len(rec.Wanted) != MaxScopes || rec.Wanted[0] != many[2*MaxScopes] {
		t.Fatalf("wanted after three full step-ups: %d, %v", len(rec.Wanted), err)
	}
}

// One record that cannot be read fails only its own server, named with
// the fix; every other server's sign-in goes on working; auth ls lists it;
// Remove (auth logout) deletes it.
func TestAnUnreadableRecordFailsOnlyItsServer(t *testing.T) {
	a := newFixture(t)
	a.signIn(t)
	b := newFixture(t)
	b.store = a.store
	b.signIn(t)
	files, _ := filepath.Glob(filepath.Join(a.store.Dir, urlKey(a.url())+"*.json"))
	if len(files) != 1 {
		t.Fatalf("server a's files: %v", files)
	}
	for name, body := range map[string][]byte{
		"oversized":     []byte(`{"url":"` + strings.Repeat("x", 300<<10) + `"}`),
		"garbage":       []byte("\x00not json"),
		"out of bounds": []byte(`{"url":"` + a.url() + `","access_token":"` + strings.Repeat("t", MaxToken+1) + `"}`),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(files[0], body, 0o600); err != nil {
				t.Fatal(err)
			}
			if tok, err := b.storedToken(t); err != nil || !strings.HasPrefix(tok, "secret-access-") {
				t.Fatalf("server b beside a bad record of a: %q %v", tok, err)
			}
			_, err := a.storedToken(t)
			if codeOf(err) != CodeStore || !strings.Contains(err.Error(), "server srv") || !strings.Contains(err.Error(), "relavium auth logout srv") {
				t.Fatalf("server a's own bad record: %v", err)
			}
			list, err := a.store.List()
			if err != nil || len(list) != 2 || list[0].URL != b.url() || list[1].Unreadable == "" || list[1].URL != "" {
				t.Fatalf("auth ls beside a bad record: %+v %v", list, err)
			}
		})
	}
	if n, err := a.store.Remove(a.url()); n != 1 || err != nil {
		t.Fatalf("auth logout of the bad record: %d %v", n, err)
	}
	if tok, err := a.storedToken(t); tok != "" || err != nil {
		t.Fatalf("after logout: %q %v", tok, err)
	}
}

// A record an earlier relavium wrote under its one-digest name is read by
// its url; an unreadable one fails no server; the next Save replaces it.
func TestLegacyRecordsAreReadAndReplaced(t *testing.T) {
	f := newFixture(t)
	h := f.signIn(t)
	rec, _ := f.store.Find(f.url())
	cur := filepath.Join(f.store.Dir, fileName(rec.URL, rec.Issuer))
	legacy := filepath.Join(f.store.Dir, legacyName(rec.URL, rec.Issuer))
	if err := os.Rename(cur, legacy); err != nil {
		t.Fatal(err)
	}
	junk := filepath.Join(f.store.Dir, strings.Repeat("0", 32)+".json")
	if err := os.WriteFile(junk, make([]byte, 300<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	if tok, err := f.storedToken(t); err != nil || tok != "secret-access-1" {
		t.Fatalf("legacy record: %q %v", tok, err)
	}
	f.now = f.now.Add(2 * time.Hour) // expired: the refresh saves the record anew
	if tok, err := h.token(context.Background()); err != nil || tok.AccessToken != "secret-access-2" {
		t.Fatalf("refresh: %v %v", tok, err)
	}
	if _, err := os.Stat(legacy); !os.IsNotExist(err) {
		t.Fatalf("the legacy file is still there: %v", err)
	}
	if _, err := os.Stat(cur); err != nil {
		t.Fatalf("the record was not written under its name: %v", err)
	}
}

// Save checks what read checks: a record out of bounds is never written.
func TestSaveNeverWritesWhatWouldNotReadBack(t *testing.T) {
	s := NewStore(t.TempDir())
	for name, rec := range map[string]*Record{
		"token":  {URL: "https://x.example/mcp", AccessToken: strings.Repeat("a", MaxToken+1)},
		"scopes": {URL: "https://x.example/mcp", Wanted: strings.Fields(strings.Repeat("a ", 2))},
		"url":    {URL: "https://x.example/" + strings.Repeat("p", maxText)},
	} {
		if err := s.Save(rec, time.Now()); codeOf(err) != CodeStore {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if files, _ := filepath.Glob(filepath.Join(s.Dir, "*")); len(files) != 0 {
		t.Fatalf("written: %v", files)
	}
	ok := &Record{URL: "https://x.example/mcp", AccessToken: strings.Repeat("a", MaxToken), RefreshToken: strings.Repeat("r", MaxToken),
		ClientSecret: strings.Repeat("c", MaxToken), Scopes: make([]string, 0, MaxScopes)}
	for i := range MaxScopes {
		ok.Scopes = append(ok.Scopes, fmt.Sprintf("%0*d", maxScope, i))
		ok.Wanted = append(ok.Wanted, fmt.Sprintf("%0*d", maxScope, i))
	}
	if err := s.Save(ok, time.Now()); err != nil {
		t.Fatalf("a record at every bound: %v", err)
	}
	if rec, err := s.Find(ok.URL); err != nil || rec == nil || len(rec.Wanted) != MaxScopes {
		t.Fatalf("a record at every bound reads back: %v", err)
	}
}

// The loopback callback: a redirect with another state or an oversized
// query is answered 400 and ignored, the real one signs in, and the right
// state again is answered without "signed in".
func TestCallbackWaitsForTheRealRedirect(t *testing.T) {
	f := newFixture(t)
	var second string
	in := &Interactive{Wait: 10 * time.Second, Prompt: func(ctx context.Context, p Prompt) (func(), error) {
		u, _ := url.Parse(p.URL)
		q := u.Query()
		cb, _ := url.Parse(q.Get("redirect_uri"))
		get := func(v url.Values) (int, string) {
			c := *cb
			c.RawQuery = v.Encode()
			resp, err := http.Get(c.String())
			if err != nil {
				return 0, err.Error()
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return resp.StatusCode, string(b)
		}
		if code, body := get(url.Values{"code": {"evil"}, "state": {"forged"}}); code != 400 || strings.Contains(body, "signed in") {
			t.Errorf("forged state answered %d %q", code, body)
		}
		if code, _ := get(url.Values{"code": {"the-code"}, "state": {q.Get("state")}, "pad": {strings.Repeat("p", 9<<10)}}); code != 400 {
			t.Errorf("oversized query answered %d", code)
		}
		if code, body := get(url.Values{"code": {"the-code"}, "state": {q.Get("state")}}); code != 200 || !strings.Contains(body, "signed in") {
			t.Errorf("the real redirect answered %d %q", code, body)
		}
		_, second = get(url.Values{"code": {"again"}, "state": {q.Get("state")}})
		return nil, nil
	}}
	h := f.handler(in, Settings{})
	defer h.Close()
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatalf("sign-in after a forged and an oversized redirect: %v", err)
	}
	if strings.Contains(second, "signed in") {
		t.Fatalf("a second callback was answered %q", second)
	}
	if f.as.tokens.Load() != 1 {
		t.Fatalf("token requests: %d, want the real code's one", f.as.tokens.Load())
	}
}
