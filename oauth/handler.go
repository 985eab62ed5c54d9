package oauth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/relavium/relavium/host/netguard"
)

// Settings are a server's declared oauth (config's `oauth = true` or
// `oauth = { … }`); the zero value is a server that declared nothing, which
// still signs in when it answers 401 with a Bearer challenge.
type Settings struct {
	// Declared is true for `oauth = true` or a table: sign-in is required
	// before anything is sent, 401 or not.
	Declared bool
	// ClientID and ClientSecretName are a pre-registered client (the secret
	// as the NAME of {{secrets.NAME}}; "" for a public client).
	ClientID         string
	ClientSecretName string
	// Scopes replace the scopes discovery would pick (a challenge's scope
	// still wins: it is what the server asks for now).
	Scopes []string
	// CallbackPort is the pre-registered client's loopback port (0: ephemeral).
	CallbackPort int
	// ClientMetadataURL is this client's metadata document url (CIMD),
	// used when the authorization server supports it. None by default.
	ClientMetadataURL string
	// AllowLocalAuth are the host:ports of the authorization server's own
	// local addresses the guard may reach (local development).
	AllowLocalAuth []string
	// Grant is GrantClientCredentials for a machine sign-in ("" is the
	// authorization code flow with a person in the browser).
	Grant string
	// PrivateKeyName is the NAME of {{secrets.NAME}} holding the PEM key a
	// client_credentials sign-in signs its client assertion with
	// (private_key_jwt); "" authenticates with ClientSecretName.
	PrivateKeyName string
	// AssertionName is the NAME of {{secrets.NAME}} holding the workload
	// JWT a jwt_bearer sign-in exchanges (GrantJWTBearer).
	AssertionName string
}

// machine reports a client_credentials sign-in: it needs no person, so it
// runs headless too.
func (s Settings) machine() bool {
	return s.Grant == GrantClientCredentials || s.Grant == GrantJWTBearer
}

// Prompt is one sign-in put to the person.
type Prompt struct {
	Server     string   // the declared server name
	AuthServer string   // the authorization server's origin
	Scopes     []string // the scopes asked for
	StepUp     bool     // the server asked for more scopes than were granted
	URL        string   // the authorization url: always shown, opened when possible
}

// Interactive is a face that can sign a person in: Prompt shows the
// prompt (the url always, the browser opened where the face may) and
// returns when the browser step has begun, or an error when the person
// declined; the done it returns (may be nil) is called when the wait for
// the redirect is over, whatever its outcome. Wait bounds that wait (0:
// DefaultWait).
type Interactive struct {
	Prompt func(ctx context.Context, p Prompt) (done func(), err error)
	Wait   time.Duration
	// Fresh ignores the stored access token until this handler has signed
	// in (auth login: a sign-in is what was asked for).
	Fresh bool
}

// DefaultWait is how long a sign-in waits for the browser's redirect.
const DefaultWait = 5 * time.Minute

// MaxSignIns bounds the sign-ins of one handler (the first and its
// step-ups): a server that keeps asking is refused, not obeyed.
const MaxSignIns = 3

// Options builds a Handler.
type Options struct {
	Server     string // the declared name
	URL        string // the server's url: with the issuer, its identity in the store
	AllowLocal bool   // the server's own host:port is declared local
	Settings   Settings
	Guard      *netguard.Guard
	Store      *Store
	// Secret resolves {{secrets.NAME}} (the client secret), read only
	// when a token request needs it.
	Secret func(name string) (string, bool, error)
	// Interactive is nil headless: stored tokens are used and refreshed,
	// and a sign-in that is needed is a coded error naming auth login.
	Interactive *Interactive
	Now         func() time.Time
}

// Handler is relavium's go-sdk auth.OAuthHandler for one server.
type Handler struct {
	o Options
	g *guarded

	flow     sync.Mutex // one sign-in at a time
	mu       sync.Mutex
	rec      *Record
	loaded   bool
	signIns  int
	signedIn bool
	refresh  error // why the last refresh failed
}

var _ auth.OAuthHandler = (*Handler)(nil)

// New returns the handler of one server.
func New(o Options) *Handler {
	if o.Now == nil {
		o.Now = time.Now
	}
	local := slices.Clone(o.Settings.AllowLocalAuth)
	if o.AllowLocal {
		if u, err := url.Parse(o.URL); err == nil {
			local = append(local, hostPortOf(u))
		}
	}
	return &Handler{o: o, g: newGuarded(o.Guard, local)}
}

// Close releases the handler's idle connections.
func (h *Handler) Close() { h.g.close() }

// SignedIn reports whether this handler ran a sign-in that stored tokens.
func (h *Handler) SignedIn() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.signedIn
}

func (h *Handler) record() (*Record, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.loaded {
		r, err := h.o.Store.Find(h.o.URL)
		if u := (*UnreadableError)(nil); errors.As(err, &u) {
			e := newErr(CodeStore, "the stored sign-in of server %s cannot be read (%s); run: relavium auth logout %s, then sign in again", h.o.Server, u.Error(), h.o.Server)
			e.Data = SignInData{Server: h.o.Server, Command: "relavium auth logout " + h.o.Server}
			return nil, e
		}
		if err != nil {
			return nil, err
		}
		h.rec, h.loaded = r, true
	}
	return h.rec, nil
}

// TokenSource returns the stored token (refreshed when expired), nil when
// there is none to send.
func (h *Handler) TokenSource(ctx context.Context) (oauth2.TokenSource, error) {
	if in := h.o.Interactive; in != nil && in.Fresh && !h.SignedIn() {
		return nil, nil
	}
	rec, err := h.record()
	if err != nil {
		return nil, err
	}
	if rec == nil {
		if h.o.Settings.Declared && h.o.Interactive == nil && !h.o.Settings.machine() {
			return nil, h.signInRequired(nil, "")
		}
		return nil, nil
	}
	return tokenSource{h: h, ctx: ctx}, nil
}

// tokenSource hands the SDK the current access token, refreshing it first
// when it is expired and a refresh token is held.
type tokenSource struct {
	h   *Handler
	ctx context.Context
}

func (t tokenSource) Token() (*oauth2.Token, error) { return t.h.token(t.ctx) }

// expiryMargin refreshes a token this long before it expires.
const expiryMargin = 30 * time.Second

// refreshMargin is how long before its expiry rec's token is refreshed:
// expiryMargin, or half the token's life (from when it was stored to its
// expiry) when that is shorter — a token living under the margin would
// otherwise be refreshed on every request, a token endpoint round trip each.
func refreshMargin(rec *Record) time.Duration {
	life := rec.Expiry.Sub(rec.Updated)
	if rec.Updated.IsZero() || life >= 2*expiryMargin {
		return expiryMargin
	}
	return max(life/2, 0)
}

func (h *Handler) token(ctx context.Context) (*oauth2.Token, error) {
	h.mu.Lock()
	rec := h.rec
	h.mu.Unlock()
	if rec == nil || rec.AccessToken == "" {
		return nil, nil
	}
	if rec.Expiry.IsZero() || h.o.Now().Add(refreshMargin(rec)).Before(rec.Expiry) {
		return &oauth2.Token{AccessToken: rec.AccessToken, TokenType: "Bearer", Expiry: rec.Expiry}, nil
	}
	if rec.RefreshToken == "" {
		return nil, nil // expired: the server's 401 starts a sign-in (or names auth login)
	}
	tok, err := h.refreshToken(ctx, rec)
	if err != nil {
		h.mu.Lock()
		h.refresh = err
		h.mu.Unlock()
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			return nil, nil // refused: treated as no token, so the 401 path names the way out
		}
		return nil, err
	}
	return tok, nil
}

// refreshToken trades the refresh token for a new access token through the
// guard, and stores the result (keeping the old refresh token when the
// server does not rotate it).
func (h *Handler) refreshToken(ctx context.Context, rec *Record) (*oauth2.Token, error) {
	secret, err := h.clientSecret(rec)
	if err != nil {
		return nil, err
	}
	if _, err := h.g.admit(rec.TokenURL); err != nil {
		return nil, err
	}
	defer h.g.close()
	tok, err := refreshGrant(ctx, h.g.client(), rec, secret)
	if err != nil {
		if r := h.g.refusal(); r != nil {
			return nil, r
		}
		return nil, err
	}
	next := *rec
	next.AccessToken, next.Expiry = tok.AccessToken, tok.Expiry
	if tok.RefreshToken != "" {
		next.RefreshToken = tok.RefreshToken
	}
	s, err := scopesOf(tok)
	if err != nil {
		return nil, outOfBounds(origin(rec.TokenURL), err)
	}
	if s != nil {
		next.Scopes = s
	}
	if err := next.bounds(); err != nil {
		return nil, outOfBounds(origin(rec.TokenURL), err)
	}
	if err := h.o.Store.Save(&next, h.o.Now()); err != nil {
		return nil, err
	}
	h.mu.Lock()
	h.rec = &next
	h.mu.Unlock()
	return &oauth2.Token{AccessToken: next.AccessToken, TokenType: "Bearer", Expiry: next.Expiry}, nil
}

// clientSecret is the secret a token request authenticates with: the one
// registration issued (kept in the record), or the pre-registered one from
// the secret stores.
func (h *Handler) clientSecret(rec *Record) (string, error) {
	if rec.ClientSecret != "" || rec.TokenAuth == "none" {
		return rec.ClientSecret, nil
	}
	s := h.o.Settings
	if s.ClientSecretName == "" || s.ClientID != rec.ClientID || h.o.Secret == nil {
		return "", nil
	}
	v, ok, err := h.o.Secret(s.ClientSecretName)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", newErr(CodeSignInRequired, "the client secret {{secrets.%s}} of server %s has no value in any secret store", s.ClientSecretName, h.o.Server)
	}
	return v, nil
}

// challenge is what a 401 or 403 said.
type challenge struct {
	bearer      bool
	metadataURL string
	scopes      []string // distinct, each a scope, at most MaxScopes
	scopeErr    error    // why the scope parameter was not taken
	errCode     string
}

func parseChallenge(resp *http.Response) challenge {
	var c challenge
	cs, _ := oauthex.ParseWWWAuthenticate(resp.Header.Values("WWW-Authenticate"))
	for _, ch := range cs {
		if !strings.EqualFold(ch.Scheme, "bearer") {
			continue
		}
		c.bearer = true
		if c.metadataURL == "" {
			c.metadataURL = ch.Params["resource_metadata"]
		}
		if c.scopes == nil && c.scopeErr == nil && ch.Params["scope"] != "" {
			c.scopes, c.scopeErr = boundScopes(strings.Fields(ch.Params["scope"]))
		}
		if c.errCode == "" {
			c.errCode = ch.Params["error"]
		}
	}
	return c
}

// Authorize is called by the SDK transport on a 401 or 403. It returns nil
// when the request should be retried (a sign-in succeeded, or a 403 that is
// no step-up, which the retry then reports as the server's refusal).
func (h *Handler) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	defer resp.Body.Close()
	ch := parseChallenge(resp)
	stepUp := resp.StatusCode == http.StatusForbidden
	if stepUp && ch.errCode != "insufficient_scope" {
		return nil
	}
	if !ch.bearer && !h.o.Settings.Declared {
		return nil // not an OAuth server: its 401 is reported as it is
	}
	if ch.scopeErr != nil {
		return outOfBounds("server "+h.o.Server+"'s challenge", ch.scopeErr)
	}
	h.flow.Lock()
	defer h.flow.Unlock()
	h.mu.Lock()
	h.loaded = false // another process (auth login, the workbench) may have signed in since
	h.mu.Unlock()
	rec, err := h.record()
	if err != nil {
		return err
	}
	if rec != nil && rec.AccessToken != "" && req.Header.Get("Authorization") != "Bearer "+rec.AccessToken && !(h.o.Interactive != nil && h.o.Interactive.Fresh && !h.SignedIn()) {
		return nil // another request signed in meanwhile: retry with its token
	}
	if stepUp && rec != nil && len(ch.scopes) > 0 && subset(ch.scopes, rec.Scopes) {
		return newErr(CodeScopeRefused, "server %s refuses the request with insufficient_scope although the token holds every scope it asks for (%s); relavium does not sign in again for them",
			h.o.Server, strings.Join(ch.scopes, " "))
	}
	if h.o.Interactive == nil && !h.o.Settings.machine() {
		return h.headless(ctx, rec, ch, stepUp)
	}
	h.mu.Lock()
	h.signIns++
	n := h.signIns
	h.mu.Unlock()
	if n > MaxSignIns {
		return newErr(CodeScopeRefused, "server %s asked for a sign-in %d times in one session; relavium stops at %d", h.o.Server, n, MaxSignIns)
	}
	if h.o.Settings.machine() {
		return h.machineSignIn(ctx, ch)
	}
	return h.signIn(ctx, ch, stepUp)
}

// headless reports the sign-in that is needed, with the authorization
// server found (its metadata admitted by the guard) and the command to run.
func (h *Handler) headless(ctx context.Context, rec *Record, ch challenge, stepUp bool) error {
	h.g.refused.Store(nil)
	defer h.g.close()
	d, err := h.g.discover(ctx, h.o.URL, ch.metadataURL)
	if err != nil {
		return err
	}
	if stepUp && rec != nil {
		next := *rec
		next.Wanted = capScopes(ch.scopes, next.Wanted)
		if err := h.o.Store.Save(&next, h.o.Now()); err != nil {
			return err
		}
		h.mu.Lock()
		h.rec = &next
		h.mu.Unlock()
		e := newErr(CodeStepUpRequired, "server %s asks for more scopes (%s) than the stored sign-in holds; run: relavium auth login %s",
			h.o.Server, strings.Join(ch.scopes, " "), h.o.Server)
		e.Data = SignInData{Server: h.o.Server, AuthServer: origin(d.asm.Issuer), Scopes: ch.scopes, Command: "relavium auth login " + h.o.Server}
		return e
	}
	return h.signInRequired(h.refreshErr(), origin(d.asm.Issuer))
}

func (h *Handler) refreshErr() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.refresh
}

// SignInData is the envelope data of E850 and E851: the server, the
// authorization server's origin, the scopes a step-up asks for and the
// command that signs in.
type SignInData struct {
	Server     string   `json:"server"`
	AuthServer string   `json:"auth_server,omitempty"`
	Scopes     []string `json:"scopes,omitempty"`
	Command    string   `json:"command"`
}

func (h *Handler) signInRequired(cause error, as string) *Error {
	at := ""
	if as != "" {
		at = " at " + as
	}
	e := newErr(CodeSignInRequired, "server %s needs sign-in%s and no one can be asked here; run: relavium auth login %s", h.o.Server, at, h.o.Server)
	if cause != nil {
		e.Msg = "server " + h.o.Server + " needs sign-in" + at + " (the refresh token was refused); run: relavium auth login " + h.o.Server
	}
	e.Data = SignInData{Server: h.o.Server, AuthServer: as, Command: "relavium auth login " + h.o.Server}
	return e
}

// origin is scheme://host of a url, for display.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return redact(raw)
	}
	return u.Scheme + "://" + u.Host
}

func subset(a, b []string) bool {
	for _, s := range a {
		if !slices.Contains(b, s) {
			return false
		}
	}
	return true
}

// union keeps a's order and adds b's new members.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// scopesOf is the scope a token response granted (nil: it names none),
// bounded as a record keeps scopes.
func scopesOf(t *oauth2.Token) ([]string, error) {
	if s, ok := t.Extra("scope").(string); ok && strings.TrimSpace(s) != "" {
		return boundScopes(strings.Fields(s))
	}
	return nil, nil
}

// outOfBounds is E868: what from refused to keep, and why (never a value).
func outOfBounds(from string, why error) *Error {
	return wrapErr(CodeOutOfBounds, why, "relavium refused what %s sent (out of bounds); nothing was stored", from)
}

func authStyle(method string) oauth2.AuthStyle {
	switch method {
	case "client_secret_post", "none":
		return oauth2.AuthStyleInParams
	}
	return oauth2.AuthStyleInHeader
}

// Hidden is every secret value this handler holds (access and refresh
// tokens, the client secret), for
// the host to redact from whatever a server sends back: a server that
// echoes the bearer token it was sent does not get it shown.
func (h *Handler) Hidden() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.rec == nil {
		return nil
	}
	var out []string
	for _, v := range []string{h.rec.AccessToken, h.rec.RefreshToken, h.rec.ClientSecret} {
		if len(v) >= 8 {
			out = append(out, v)
		}
	}
	return out
}
