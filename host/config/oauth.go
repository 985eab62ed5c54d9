package config

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/netguard"
)

// The codes of the oauth field (E866–E867: package oauth's range).
const (
	CodeOAuth          fault.Code = "E866" // an oauth value that is not true/false or a valid table
	CodeOAuthTransport fault.Code = "E867" // oauth on a transport other than http (Streamable HTTP)
)

// OAuth is a server's declared sign-in (`oauth = true`, or a table). The
// client secret is kept as authored: exactly {{secrets.NAME}}, resolved
// only when a token request needs it.
type OAuth struct {
	ClientID          string   `json:"client_id,omitempty"`
	ClientSecret      string   `json:"-"`
	Scopes            []string `json:"scopes,omitempty"`
	CallbackPort      int      `json:"callback_port,omitempty"`
	ClientMetadataURL string   `json:"client_metadata_url,omitempty"`
	AllowLocalAuth    []string `json:"allow_local_auth,omitempty"`
	// Grant is "client_credentials" for a machine sign-in (no browser, no
	// person); "" is the authorization code flow.
	Grant string `json:"grant,omitempty"`
	// PrivateKey is exactly {{secrets.NAME}}: the PEM key a
	// client_credentials sign-in signs its client assertion with
	// (private_key_jwt), resolved only when a token request needs it.
	PrivateKey string `json:"-"`
	// Assertion is exactly {{secrets.NAME}}: the workload JWT a
	// jwt_bearer sign-in exchanges for an access token.
	Assertion string `json:"-"`
}

// AssertionName is the NAME of the assertion's {{secrets.NAME}}, or "".
func (o *OAuth) AssertionName() string {
	n, _ := consent.SecretRef(o.Assertion)
	return n
}

// PrivateKeyName is the NAME of the private key's {{secrets.NAME}}, or "".
func (o *OAuth) PrivateKeyName() string {
	n, _ := consent.SecretRef(o.PrivateKey)
	return n
}

// ClientSecretName is the NAME of the client secret's {{secrets.NAME}}, or "".
func (o *OAuth) ClientSecretName() string {
	n, _ := consent.SecretRef(o.ClientSecret)
	return n
}

var oauthKeys = []string{"client_id", "client_secret", "scopes", "callback_port", "client_metadata_url", "allow_local_auth", "grant", "private_key", "assertion"}

// oauthField reads `oauth`: true (sign in before anything is sent), false
// (the default: sign in when the server answers 401 with a Bearer
// challenge) or a table of the pre-registered client and its settings.
func (c *checker) oauthField(v *node, path, transport string, s *Server) {
	f := v.get("oauth")
	if f == nil {
		return
	}
	p := join(path, "oauth")
	if transport != "" && transport != netguard.TransportHTTP {
		c.add(CodeOAuthTransport, f.keyPos, p, "oauth is for transport \"http\" (Streamable HTTP), whose client carries the sign-in; a server on %q cannot use it", transport)
		return
	}
	if s.StaticAuthorization() {
		c.add(CodeOAuth, f.keyPos, p, "the server also sends a static Authorization header, which is its credential: a server with one is never signed in with OAuth (drop one of the two)")
		return
	}
	switch f.val.kind {
	case kindBad:
		return
	case kindBool:
		if f.val.bool {
			s.OAuth = &OAuth{}
		}
		return
	case kindTable:
	default:
		c.add(CodeOAuth, f.at(), p, "must be true, false or a table { client_id = …, client_secret = \"{{secrets.NAME}}\", scopes = […], callback_port = …, client_metadata_url = …, allow_local_auth = [\"host:port\"], grant = \"client_credentials\", private_key = \"{{secrets.NAME}}\" }, got %s", f.val.kind)
		return
	}
	t := f.val
	c.unknownKeys(t, p, oauthKeys, func(string) string { return "" })
	o := &OAuth{}
	if g := t.get("client_id"); g != nil {
		o.ClientID, _ = c.required(g, join(p, "client_id"), "the client id the authorization server registered for relavium")
	}
	if g := t.get("client_secret"); g != nil {
		if sec, ok := c.str(g, join(p, "client_secret")); ok {
			if _, ref := consent.SecretRef(sec); !ref {
				c.add(CodeOAuth, g.at(), join(p, "client_secret"), "must be exactly {{secrets.NAME}}: a client secret is never written in a config file (put it in RELAVIUM_SECRET_<NAME> or <home>/secrets.toml)")
			} else {
				o.ClientSecret = sec
			}
		}
		if o.ClientID == "" && t.get("client_id") == nil {
			c.add(CodeOAuth, g.keyPos, join(p, "client_secret"), "a client_secret belongs to a pre-registered client: set client_id too")
		}
	}
	if g := t.get("scopes"); g != nil {
		items, _, _ := c.strItems(g, join(p, "scopes"), CodeOAuth, "scope strings", "a scope string")
		for _, it := range items {
			if it.val == "" || strings.ContainsAny(it.val, " \t\"\\") {
				c.add(CodeOAuth, it.pos, fmt.Sprintf("%s[%d]", join(p, "scopes"), it.index), "a scope is one token without spaces, quotes or backslashes, got %q", it.val)
				continue
			}
			o.Scopes = append(o.Scopes, it.val)
		}
	}
	if g := t.get("callback_port"); g != nil {
		switch {
		case g.val.kind != kindInt:
			c.wrongType(g, join(p, "callback_port"), "a port number")
		case g.val.num < 1024 || g.val.num > 65535:
			c.add(CodeOAuth, g.at(), join(p, "callback_port"), "must be a port from 1024 to 65535 (the loopback callback of a pre-registered client), got %d", g.val.num)
		case t.get("client_id") == nil:
			c.add(CodeOAuth, g.keyPos, join(p, "callback_port"), "a fixed callback port belongs to a pre-registered client's redirect uri: set client_id too")
		default:
			o.CallbackPort = int(g.val.num)
		}
	}
	if g := t.get("client_metadata_url"); g != nil {
		if u, ok := c.required(g, join(p, "client_metadata_url"), "the https url of the client ID metadata document you publish"); ok {
			pu, err := url.Parse(u)
			if err != nil || pu.Scheme != "https" || pu.Host == "" || strings.Trim(pu.Path, "/") == "" || pu.User != nil || pu.Fragment != "" {
				c.add(CodeOAuth, g.at(), join(p, "client_metadata_url"), "must be an https url with a path (a client ID metadata document is named by such a url), got %q", u)
			} else {
				o.ClientMetadataURL = u
			}
		}
	}
	if g := t.get("allow_local_auth"); g != nil {
		items, _, _ := c.strItems(g, join(p, "allow_local_auth"), CodeOAuth, "host:port strings", "a host:port string")
		for _, it := range items {
			if !hostPortOK(it.val) {
				c.add(CodeOAuth, it.pos, fmt.Sprintf("%s[%d]", join(p, "allow_local_auth"), it.index), "must be host:port (e.g. \"localhost:9000\"): the exact local address of the authorization server, got %q", it.val)
				continue
			}
			o.AllowLocalAuth = append(o.AllowLocalAuth, it.val)
		}
	}
	c.oauthGrant(t, p, o)
	s.OAuth = o
}

// oauthGrant reads grant and private_key. A client_credentials sign-in is
// a pre-registered client's (client_id) with exactly one credential: its
// client_secret or its private_key, each {{secrets.NAME}}; a private key
// has no use in the browser flow, and neither a callback port nor a client
// metadata document in the machine one.
func (c *checker) oauthGrant(t *node, p string, o *OAuth) {
	if g := t.get("grant"); g != nil {
		if v, ok := c.str(g, join(p, "grant")); ok {
			switch v {
			case "authorization_code":
			case "client_credentials", "jwt_bearer":
				o.Grant = v
			default:
				c.add(CodeOAuth, g.at(), join(p, "grant"), "must be \"authorization_code\" (a person signs in in the browser, the default), \"client_credentials\" (a machine signs in with its client secret or private key) or \"jwt_bearer\" (a workload exchanges its identity token), got %q", v)
			}
		}
	}
	if g := t.get("private_key"); g != nil {
		if sec, ok := c.str(g, join(p, "private_key")); ok {
			if _, ref := consent.SecretRef(sec); !ref {
				c.add(CodeOAuth, g.at(), join(p, "private_key"), "must be exactly {{secrets.NAME}}: a private key is never written in a config file (put the PEM in RELAVIUM_SECRET_<NAME> or <home>/secrets.toml)")
			} else {
				o.PrivateKey = sec
			}
		}
	}
	if g := t.get("assertion"); g != nil {
		if sec, ok := c.str(g, join(p, "assertion")); ok {
			if _, ref := consent.SecretRef(sec); !ref {
				c.add(CodeOAuth, g.at(), join(p, "assertion"), "must be exactly {{secrets.NAME}}: a workload token is never written in a config file (put it in RELAVIUM_SECRET_<NAME> or <home>/secrets.toml)")
			} else {
				o.Assertion = sec
			}
		}
	}
	if o.Grant == "jwt_bearer" {
		switch {
		case t.get("assertion") == nil:
			c.add(CodeOAuth, t.get("grant").keyPos, join(p, "grant"), "a jwt_bearer sign-in exchanges a workload token: set assertion = \"{{secrets.NAME}}\"")
		case t.get("client_secret") != nil || t.get("private_key") != nil || t.get("callback_port") != nil || t.get("client_metadata_url") != nil:
			c.add(CodeOAuth, t.get("grant").keyPos, join(p, "grant"), "a jwt_bearer sign-in has only its assertion (and an optional client_id): client_secret, private_key, callback_port and client_metadata_url do not apply")
		}
		return
	}
	if t.get("assertion") != nil {
		c.add(CodeOAuth, t.get("assertion").keyPos, join(p, "assertion"), "an assertion is exchanged by a jwt_bearer sign-in: set grant = \"jwt_bearer\" too")
	}
	machine := o.Grant == "client_credentials"
	switch {
	case !machine && t.get("private_key") != nil:
		c.add(CodeOAuth, t.get("private_key").keyPos, join(p, "private_key"), "a private key signs a client_credentials sign-in: set grant = \"client_credentials\" too")
	case !machine:
	case t.get("client_id") == nil:
		c.add(CodeOAuth, t.get("grant").keyPos, join(p, "grant"), "a client_credentials sign-in is a pre-registered client's: set client_id, and client_secret or private_key")
	case (t.get("client_secret") == nil) == (t.get("private_key") == nil):
		c.add(CodeOAuth, t.get("grant").keyPos, join(p, "grant"), "a client_credentials sign-in authenticates with exactly one of client_secret and private_key (each \"{{secrets.NAME}}\")")
	case t.get("callback_port") != nil || t.get("client_metadata_url") != nil:
		c.add(CodeOAuth, t.get("grant").keyPos, join(p, "grant"), "a client_credentials sign-in has no browser step: callback_port and client_metadata_url do not apply")
	}
}

func hostPortOK(s string) bool {
	h, p, err := net.SplitHostPort(s)
	if err != nil || h == "" || strings.ContainsAny(h, "/@ ") {
		return false
	}
	n, err := strconv.Atoi(p)
	return err == nil && n > 0 && n < 65536 && p[0] != '0'
}
