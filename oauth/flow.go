package oauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/relavium/relavium/host/netguard"
)

// SignIn runs a sign-in now, with no challenge from the server (auth login
// for a server that declares oauth, so the browser step comes before any
// request is refused).
func (h *Handler) SignIn(ctx context.Context) error {
	if h.o.Interactive == nil && !h.o.Settings.machine() {
		return h.signInRequired(nil, "")
	}
	h.flow.Lock()
	defer h.flow.Unlock()
	h.mu.Lock()
	h.signIns++
	h.mu.Unlock()
	if h.o.Settings.machine() {
		return h.machineSignIn(ctx, challenge{})
	}
	return h.signIn(ctx, challenge{}, false)
}

// client is the client identity a sign-in uses.
type client struct {
	id, secret, method string // method: client_secret_basic | client_secret_post | none
	registered         bool   // issued by dynamic registration (its secret is kept in the record)
}

// signIn is one authorization-code sign-in: discovery, the client
// identity, PKCE S256, the resource parameter, the browser step through the
// loopback listener, state and issuer checks, the token exchange, and the
// record stored.
func (h *Handler) signIn(ctx context.Context, ch challenge, stepUp bool) error {
	h.g.refused.Store(nil)
	defer h.g.close() // no idle connection of the flow outlives it
	rec, err := h.record()
	if err != nil {
		return err
	}
	d, err := h.g.discover(ctx, h.o.URL, ch.metadataURL)
	if err != nil {
		return err
	}
	scopes := h.scopes(d, ch, rec)
	if len(scopes) > MaxScopes {
		return outOfBounds("server "+h.o.Server+"'s authorization server", fmt.Errorf("the sign-in would ask for %d scopes, over the %d relavium keeps", len(scopes), MaxScopes))
	}

	state := rand.Text()
	l, err := listen(h.o.Settings.CallbackPort, state)
	if err != nil {
		return err
	}
	defer l.close()

	cl, err := h.identity(ctx, d, l.redirectURL())
	if err != nil {
		return err
	}
	cfg := &oauth2.Config{
		ClientID:     cl.id,
		ClientSecret: cl.secret,
		Endpoint:     oauth2.Endpoint{AuthURL: d.asm.AuthorizationEndpoint, TokenURL: d.asm.TokenEndpoint, AuthStyle: authStyle(cl.method)},
		RedirectURL:  l.redirectURL(),
		Scopes:       scopes,
	}
	verifier := oauth2.GenerateVerifier()
	authURL := cfg.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", d.resource))

	in := h.o.Interactive
	done, err := in.Prompt(ctx, Prompt{Server: h.o.Server, AuthServer: origin(d.asm.Issuer), Scopes: scopes, StepUp: stepUp, URL: authURL})
	if err != nil {
		return wrapErr(CodeCancelled, err, "sign-in to server %s declined", h.o.Server)
	}
	wait := in.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	res, err := l.wait(ctx, wait)
	if done != nil {
		done()
	}
	if err != nil {
		return err
	}
	if res.errCode != "" {
		return newErr(CodeAuthorizeDenied, "the authorization server answered %q: %s", clip(res.errCode), clip(res.errDescr))
	}
	if err := checkIssuer(res.iss, d.asm); err != nil {
		return err
	}
	cctx := context.WithValue(ctx, oauth2.HTTPClient, h.g.client())
	tok, err := cfg.Exchange(cctx, res.code, oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", d.resource))
	if err != nil {
		if r := h.g.refusal(); r != nil {
			return r
		}
		return wrapErr(CodeTokenExchange, tokenErr(err), "the token endpoint refused the authorization code")
	}
	granted, err := scopesOf(tok)
	if err != nil {
		return outOfBounds(origin(d.asm.TokenEndpoint), err)
	}
	if granted == nil {
		granted = scopes
	}
	next := &Record{Server: h.o.Server, URL: h.o.URL, Issuer: d.asm.Issuer, Resource: d.resource, TokenURL: d.asm.TokenEndpoint,
		ClientID: cl.id, TokenAuth: cl.method, Scopes: granted, AccessToken: tok.AccessToken, RefreshToken: tok.RefreshToken,
		TokenType: tok.TokenType, Expiry: tok.Expiry}
	if cl.registered {
		next.ClientSecret = cl.secret
	}
	if rec != nil {
		for _, w := range rec.Wanted {
			if !slices.Contains(granted, w) {
				next.Wanted = append(next.Wanted, w)
			}
		}
	}
	if err := next.bounds(); err != nil {
		return outOfBounds("the authorization server "+origin(d.asm.Issuer), err)
	}
	if err := h.o.Store.Save(next, h.o.Now()); err != nil {
		return err
	}
	h.mu.Lock()
	h.rec, h.loaded, h.signedIn, h.refresh = next, true, true, nil
	h.mu.Unlock()
	return nil
}

// scopes picks what to ask for: the challenge's scope (what the server asks
// for now), else the declared scopes, else the resource's scopes_supported
// (none: the scope parameter is left out); plus, on the same authorization
// server, every scope granted or asked for before (a step-up keeps what was
// granted); plus offline_access when the authorization server offers it
// (relavium keeps refresh tokens in its store).
func (h *Handler) scopes(d *discovery, ch challenge, rec *Record) []string {
	var s []string
	switch {
	case len(ch.scopes) > 0:
		s = slices.Clone(ch.scopes)
	case len(h.o.Settings.Scopes) > 0:
		s = slices.Clone(h.o.Settings.Scopes)
	default:
		s = slices.Clone(d.scopes)
	}
	if rec != nil && sameIssuer(rec.Issuer, d.asm.Issuer) {
		s = union(rec.Scopes, s)
		s = union(s, rec.Wanted)
	}
	if slices.Contains(d.asm.ScopesSupported, "offline_access") && !slices.Contains(s, "offline_access") {
		s = append(s, "offline_access")
	}
	return s
}

// identity picks the client identity in relavium's order: the declared
// pre-registered client, then this client's metadata document when the
// authorization server supports them and a url is configured, then dynamic
// registration.
func (h *Handler) identity(ctx context.Context, d *discovery, redirect string) (client, error) {
	s := h.o.Settings
	asm := d.asm
	if s.ClientID != "" {
		secret := ""
		if s.ClientSecretName != "" {
			v, err := h.clientSecret(&Record{ClientID: s.ClientID})
			if err != nil {
				return client{}, err
			}
			secret = v
		}
		return client{id: s.ClientID, secret: secret, method: pickMethod(asm.TokenEndpointAuthMethodsSupported, secret != "")}, nil
	}
	if asm.ClientIDMetadataDocumentSupported && s.ClientMetadataURL != "" {
		return client{id: s.ClientMetadataURL, method: "none"}, nil
	}
	if asm.RegistrationEndpoint == "" {
		return client{}, newErr(CodeNoClient, "the authorization server %s offers no dynamic registration, and server %s declares no pre-registered client (oauth.client_id)%s",
			origin(asm.Issuer), h.o.Server, cimdHint(asm, s))
	}
	if _, err := h.g.admit(asm.RegistrationEndpoint); err != nil {
		return client{}, err
	}
	meta := &oauthex.ClientRegistrationMetadata{
		RedirectURIs:  []string{redirect},
		ClientName:    "relavium",
		GrantTypes:    []string{"authorization_code", "refresh_token"},
		ResponseTypes: []string{"code"},
		// A native application (RFC 7591 / OpenID DCR, SEP-837): relavium
		// runs on the person's machine and receives the code on a loopback
		// redirect, which an authorization server may allow only to one.
		ApplicationType: "native",
	}
	resp, err := oauthex.RegisterClient(ctx, asm.RegistrationEndpoint, meta, h.g.client())
	if err != nil {
		if r := h.g.refusal(); r != nil {
			return client{}, r
		}
		return client{}, wrapErr(CodeRegistration, err, "dynamic client registration at %s failed", redact(asm.RegistrationEndpoint))
	}
	// The method the registration answer names; else one the metadata
	// lists (the TypeScript SDK's auth router answers none and lists
	// client_secret_post and none: basic would be refused).
	method := resp.TokenEndpointAuthMethod
	if method == "" {
		method = pickMethod(asm.TokenEndpointAuthMethodsSupported, resp.ClientSecret != "")
	}
	return client{id: resp.ClientID, secret: resp.ClientSecret, method: method, registered: true}, nil
}

func cimdHint(asm *oauthex.AuthServerMeta, s Settings) string {
	if asm.ClientIDMetadataDocumentSupported && s.ClientMetadataURL == "" {
		return " (it accepts client ID metadata documents: set oauth.client_metadata_url to one you publish)"
	}
	return ""
}

// pickMethod is the token endpoint's client authentication when no
// registration answer names one: what the authorization server lists,
// basic first (RFC 6749's must-support; RFC 8414's default when nothing is
// listed), then post, then none; none for a public client. Only when the
// list holds none of the three (private_key_jwt alone) is basic sent, as
// the one a client holding a secret can still try.
func pickMethod(supported []string, hasSecret bool) string {
	if !hasSecret {
		return "none"
	}
	switch {
	case len(supported) == 0, slices.Contains(supported, "client_secret_basic"):
		return "client_secret_basic"
	case slices.Contains(supported, "client_secret_post"):
		return "client_secret_post"
	case slices.Contains(supported, "none"):
		return "none"
	}
	return "client_secret_basic"
}

// checkIssuer is RFC 9207: an authorization server that advertises the iss
// parameter must send its own issuer; one that does not may send none, and
// any iss sent must be the issuer.
func checkIssuer(iss string, asm *oauthex.AuthServerMeta) error {
	if iss == "" {
		if asm.AuthorizationResponseIssParameterSupported {
			return newErr(CodeIssuer, "the authorization server advertises the iss parameter (RFC 9207) but its redirect carried none")
		}
		return nil
	}
	// Compared exactly, character for character (RFC 9207 §2.4): no
	// trailing slash, case or port is normalised away.
	if iss != asm.Issuer {
		return newErr(CodeIssuer, "the redirect names the issuer %q, not %s: another authorization server answered (mix-up), nothing was exchanged", clip(iss), redact(asm.Issuer))
	}
	return nil
}

// tokenErr keeps an oauth2 error's code and description, never the body
// (which may echo what was sent).
func tokenErr(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		if re.ErrorCode != "" {
			return errors.New(clip(re.ErrorCode + ": " + re.ErrorDescription))
		}
		if re.Response != nil {
			return errors.New(re.Response.Status)
		}
	}
	if r, ok := netguard.AsRefusal(err); ok {
		return r
	}
	return err
}
