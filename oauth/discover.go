package oauth

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/relavium/relavium/host/netguard"
)

// discovery is what the flow learnt about a server before it signs in: the
// resource to name (RFC 8707), the authorization server and its metadata,
// and the scopes the protected resource advertises.
type discovery struct {
	resource string                  // the resource parameter
	scopes   []string                // the resource's scopes_supported
	asm      *oauthex.AuthServerMeta // validated; endpoints admitted by the guard
	legacy   bool                    // no protected-resource metadata: the 2025-03-26 rules
}

// discover finds the protected-resource metadata (the WWW-Authenticate
// resource_metadata url first, then the path-based and root well-known
// urls), then the authorization server's metadata (RFC 8414 and OpenID
// Connect, path-inserted and path-appended), with the 2025-03-26 fallbacks:
// no resource metadata makes the server's origin the authorization server,
// and no authorization-server metadata gives it the default /authorize,
// /token and /register endpoints. A url the guard refuses ends discovery
// with the guard's refusal, nothing sent to it.
func (g *guarded) discover(ctx context.Context, serverURL, metadataURL string) (*discovery, error) {
	prm, resource, err := g.resourceMeta(ctx, serverURL, metadataURL)
	if err != nil {
		return nil, err
	}
	d := &discovery{resource: resource}
	issuer := ""
	if prm == nil {
		d.legacy = true
		u, _ := url.Parse(serverURL)
		issuer = (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
		d.resource = serverURL
	} else {
		issuer = prm.AuthorizationServers[0]
		d.scopes = prm.ScopesSupported
	}
	if _, err := g.admit(issuer); err != nil {
		return nil, err
	}
	asm, err := g.authServerMeta(ctx, issuer, d.legacy)
	if err != nil {
		return nil, err
	}
	d.asm = asm
	return d, nil
}

// resourceMeta returns the first protected-resource metadata found and the
// resource it names; nil when none of the candidates has one.
func (g *guarded) resourceMeta(ctx context.Context, serverURL, metadataURL string) (*oauthex.ProtectedResourceMetadata, string, error) {
	su, err := url.Parse(serverURL)
	if err != nil {
		return nil, "", wrapErr(CodeResourceMeta, err, "the server url does not parse")
	}
	origin := (&url.URL{Scheme: su.Scheme, Host: su.Host}).String()
	type candidate struct{ url, resource string }
	var cands []candidate
	if metadataURL != "" {
		cands = append(cands, candidate{metadataURL, serverURL})
	}
	if p := strings.Trim(su.Path, "/"); p != "" {
		cands = append(cands, candidate{origin + "/.well-known/oauth-protected-resource/" + p, serverURL})
	}
	cands = append(cands, candidate{origin + "/.well-known/oauth-protected-resource", origin})
	var lastErr error
	for _, c := range cands {
		var prm oauthex.ProtectedResourceMetadata
		err := g.getJSON(ctx, c.url, &prm)
		if errors.Is(err, errNotFound) {
			continue
		}
		if _, refused := netguard.AsRefusal(err); refused {
			return nil, "", err
		}
		if err != nil {
			lastErr = err
			continue
		}
		if !sameResource(prm.Resource, c.resource) && !sameResource(prm.Resource, serverURL) {
			return nil, "", newErr(CodeResourceMeta, "the protected-resource metadata at %s names the resource %q, not %s; a document for another resource is never used",
				redact(c.url), clip(prm.Resource), redact(serverURL))
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, "", newErr(CodeResourceMeta, "the protected-resource metadata at %s names no authorization server", redact(c.url))
		}
		for _, as := range prm.AuthorizationServers[:1] {
			if _, err := g.admit(as); err != nil {
				return nil, "", err
			}
		}
		return &prm, prm.Resource, nil
	}
	if lastErr != nil && metadataURL != "" {
		return nil, "", wrapErr(CodeResourceMeta, lastErr, "the protected-resource metadata could not be read")
	}
	return nil, "", nil
}

// authServerMeta fetches and checks the authorization server's metadata.
func (g *guarded) authServerMeta(ctx context.Context, issuer string, legacy bool) (*oauthex.AuthServerMeta, error) {
	var asm *oauthex.AuthServerMeta
	for _, mu := range authServerMetaURLs(issuer) {
		var m oauthex.AuthServerMeta
		err := g.getJSON(ctx, mu, &m)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil {
			if _, refused := netguard.AsRefusal(err); refused {
				return nil, err
			}
			return nil, wrapErr(CodeAuthServerMeta, err, "the authorization server's metadata could not be read")
		}
		asm = &m
		break
	}
	if asm == nil {
		// 2025-03-26: an authorization server without metadata has its
		// endpoints at fixed paths under its base url.
		base := strings.TrimSuffix(issuer, "/")
		asm = &oauthex.AuthServerMeta{Issuer: issuer, AuthorizationEndpoint: base + "/authorize", TokenEndpoint: base + "/token",
			RegistrationEndpoint: base + "/register", CodeChallengeMethodsSupported: []string{"S256"}}
	}
	if !sameIssuer(asm.Issuer, issuer) {
		if !legacy {
			return nil, newErr(CodeAuthServerMeta, "the authorization server's metadata names the issuer %q, not %s (RFC 8414 §3.3)", clip(asm.Issuer), redact(issuer))
		}
		// Without resource metadata the server's own origin serves the
		// document: its issuer is the server's word either way.
	}
	if !slices.Contains(asm.CodeChallengeMethodsSupported, "S256") {
		return nil, newErr(CodeAuthServerMeta, "the authorization server %s does not offer PKCE with S256, which MCP requires", redact(issuer))
	}
	if asm.AuthorizationEndpoint == "" || asm.TokenEndpoint == "" {
		return nil, newErr(CodeAuthServerMeta, "the authorization server's metadata lacks an authorization or token endpoint")
	}
	for _, u := range []string{asm.AuthorizationEndpoint, asm.TokenEndpoint} {
		if _, err := g.admit(u); err != nil {
			return nil, err
		}
	}
	return asm, nil
}

// authServerMetaURLs are the well-known urls of an issuer, in the order the
// MCP specification gives.
func authServerMetaURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil
	}
	origin := (&url.URL{Scheme: u.Scheme, Host: u.Host}).String()
	p := strings.Trim(u.Path, "/")
	if p == "" {
		return []string{origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"}
	}
	return []string{
		origin + "/.well-known/oauth-authorization-server/" + p,
		origin + "/.well-known/openid-configuration/" + p,
		origin + "/" + p + "/.well-known/openid-configuration",
	}
}

func sameResource(a, b string) bool { return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/") }

func sameIssuer(a, b string) bool { return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/") }

// clip bounds a server-supplied string quoted in a message.
func clip(s string) string {
	if len(s) > 200 {
		return strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}
