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
}

// ClientSecretName is the NAME of the client secret's {{secrets.NAME}}, or "".
func (o *OAuth) ClientSecretName() string {
	n, _ := consent.SecretRef(o.ClientSecret)
	return n
}

var oauthKeys = []string{"client_id", "client_secret", "scopes", "callback_port", "client_metadata_url", "allow_local_auth"}

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
		c.add(CodeOAuth, f.at(), p, "must be true, false or a table { client_id = …, client_secret = \"{{secrets.NAME}}\", scopes = […], callback_port = …, client_metadata_url = …, allow_local_auth = [\"host:port\"] }, got %s", f.val.kind)
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
	s.OAuth = o
}

func hostPortOK(s string) bool {
	h, p, err := net.SplitHostPort(s)
	if err != nil || h == "" || strings.ContainsAny(h, "/@ ") {
		return false
	}
	n, err := strconv.Atoi(p)
	return err == nil && n > 0 && n < 65536 && p[0] != '0'
}
