package session

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/host/secrets"
	"github.com/relavium/relavium/oauth"
)

// oauthHandler is the sign-in of a Streamable HTTP server: its declared
// oauth settings, the token store of the home, the secret stores for a
// pre-registered client's secret, and the session's guard for every url
// of the flow. in is nil headless (stored tokens only). A server that sends
// a static Authorization header has none: it is never probed for OAuth.
func (s *Session) oauthHandler(srv config.Server, guard *netguard.Guard, in *oauth.Interactive) *oauth.Handler {
	if srv.Transport != host.TransportHTTP || staticAuthorization(srv) {
		return nil
	}
	if s.opts.AdhocName != "" && srv.Name == s.opts.AdhocName && srv.Pos.File == "" {
		return nil // the ad-hoc --url server has no name `auth login` could take
	}
	var set oauth.Settings
	if o := srv.OAuth; o != nil {
		set = oauth.Settings{Declared: true, ClientID: o.ClientID, ClientSecretName: o.ClientSecretName(), Scopes: o.Scopes,
			CallbackPort: o.CallbackPort, ClientMetadataURL: o.ClientMetadataURL, AllowLocalAuth: o.AllowLocalAuth,
			Grant: o.Grant, PrivateKeyName: o.PrivateKeyName(), AssertionName: o.AssertionName()}
	}
	chain := secrets.SecretChain{secrets.EnvSecrets{LookupEnv: s.opts.LookupEnv}, secrets.NewFileSecrets(s.opts.Home)}
	return oauth.New(oauth.Options{Server: srv.Name, URL: s.signInURL(srv), AllowLocal: srv.AllowLocalEndpoint, Settings: set,
		Guard: guard, Store: oauth.NewStore(s.opts.Home), Secret: chain.Secret, Interactive: in, Now: s.opts.Now})
}

// staticAuthorization reports whether the server sends its own
// Authorization header (then relavium never runs OAuth for it).
func staticAuthorization(srv config.Server) bool { return srv.StaticAuthorization() }

// asHandler is h as the host's handler (a nil *Handler is no handler).
func asHandler(h *oauth.Handler) auth.OAuthHandler {
	if h == nil {
		return nil
	}
	return h
}

// LoginResult is what `auth login` did.
type LoginResult struct {
	// SignedIn is false when the server answered without asking for a
	// sign-in (nothing was stored).
	SignedIn bool
}

// Login signs the declared server name in through in (the browser step),
// then connects it once with the new token to prove it. A server that
// declares oauth is signed in first; any other is connected and signed in
// when it answers 401 with a Bearer challenge. The stored access token is
// not used: a login is what was asked for.
func (s *Session) Login(ctx context.Context, name string, in oauth.Interactive) (LoginResult, error) {
	var srv *config.Server
	servers := s.decl.all()
	for i := range servers {
		if servers[i].Name == name {
			srv = &servers[i]
		}
	}
	if srv == nil || srv.Transport != host.TransportHTTP || staticAuthorization(*srv) {
		return LoginResult{}, noLoginServer(name, srv)
	}
	in.Fresh = true
	bound, local, err := s.bindFor(ctx, servers, name)
	if err != nil {
		return LoginResult{}, err
	}
	target := *srv
	target.AllowLocalEndpoint = local // a held local address: only on the person's word
	opts := s.hostOptions()
	opts.Guard = s.guard() // the session's proxy applies to a sign-in too
	h := s.oauthHandler(target, opts.Guard, &in)
	defer h.Close()
	hs, err := s.hostServer(target, nil, bound, &opts)
	if err != nil {
		return LoginResult{}, err
	}
	hs.OAuth = h
	opts.Servers = []host.Endpoint{hs}
	// The browser step runs inside the connect (or the tools/list walk):
	// their deadlines make room for a person.
	wait := in.Wait
	if wait <= 0 {
		wait = oauth.DefaultWait
	}
	opts.Timeouts.NetworkConnect = max(opts.Timeouts.NetworkConnect, host.DefaultNetworkConnect) + wait
	opts.Timeouts.Discovery = max(opts.Timeouts.Discovery, host.DefaultDiscovery) + wait
	connect := func() error {
		hst, err := host.Start(ctx, opts)
		if err != nil {
			return err
		}
		return hst.Close()
	}
	// Connect first: the server's own 401 carries the scope it asks for.
	if err := connect(); err != nil {
		return LoginResult{SignedIn: h.SignedIn()}, err
	}
	if !h.SignedIn() && srv.OAuth != nil {
		// Declared oauth on a server that did not ask: sign in anyway,
		// then prove the token once.
		if err := h.SignIn(ctx); err != nil {
			return LoginResult{}, err
		}
		if err := connect(); err != nil {
			return LoginResult{SignedIn: true}, err
		}
	}
	return LoginResult{SignedIn: h.SignedIn()}, nil
}

func noLoginServer(name string, srv *config.Server) error {
	e := &oauth.Error{}
	e.ErrCode, e.Exit = oauth.CodeNoServer, 2
	switch {
	case srv == nil:
		e.Msg = "no declared server is named " + name
	case srv.Transport != host.TransportHTTP:
		e.Msg = "server " + name + " is on transport " + srv.Transport + "; sign-in is for Streamable HTTP servers (transport \"http\")"
	default:
		e.Msg = "server " + name + " sends a static Authorization header; relavium does not sign it in"
	}
	return e
}

// Browser opens an authorization url the way this session's environment
// says ($BROWSER, else xdg-open/open). Only a face with a person at a
// terminal calls it.
func (s *Session) Browser() oauth.Browser { return oauth.Browser{Getenv: s.opts.getenv} }
