package oauth

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// GrantClientCredentials is the machine-to-machine sign-in (OAuth
// client_credentials, the MCP client-credentials extension): no browser and
// no person; the client authenticates at the token endpoint with its secret
// (client_secret_basic or _post) or with a JWT it signs with its private
// key (private_key_jwt, RFC 7523), both read from the secret stores. CI
// uses it: a server declared so signs itself in wherever relavium runs,
// headless included.
const GrantClientCredentials = "client_credentials"

// GrantJWTBearer is the workload-identity sign-in (RFC 7523 §2.1, the MCP
// workload identity federation extension): the workload's own JWT, issued
// by its platform (a CI job's OIDC token, a Kubernetes service account
// token), read from the secret stores, is exchanged for an access token;
// no client secret exists. A refused assertion is reported, never retried
// with another grant.
const GrantJWTBearer = "jwt_bearer"

// assertionTTL is how long a client assertion is valid (RFC 7523 §3: the
// authorization server rejects an expired one).
const assertionTTL = 5 * time.Minute

// machineSignIn is one client_credentials sign-in: discovery (the guard
// admits every url), the token request, the record stored.
func (h *Handler) machineSignIn(ctx context.Context, ch challenge) error {
	h.g.refused.Store(nil)
	defer h.g.close()
	d, err := h.g.discover(ctx, h.o.URL, ch.metadataURL)
	if err != nil {
		return err
	}
	if _, err := h.g.admit(d.asm.TokenEndpoint); err != nil {
		return err
	}
	s := h.o.Settings
	var scopes []string
	switch {
	case len(ch.scopes) > 0:
		scopes = slices.Clone(ch.scopes)
	case len(s.Scopes) > 0:
		scopes = slices.Clone(s.Scopes)
	default:
		scopes = slices.Clone(d.scopes)
	}
	cfg := &clientcredentials.Config{ClientID: s.ClientID, TokenURL: d.asm.TokenEndpoint, Scopes: scopes,
		EndpointParams: url.Values{"resource": {d.resource}}}
	method := ""
	switch {
	case s.Grant == GrantJWTBearer:
		assertion, err := h.secretValue(s.AssertionName, "workload assertion")
		if err != nil {
			return err
		}
		method = "none"
		cfg.AuthStyle = oauth2.AuthStyleInParams // client_id in the body when declared, no secret
		cfg.EndpointParams.Set("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer")
		cfg.EndpointParams.Set("assertion", assertion)
	case s.PrivateKeyName != "":
		key, err := h.secretValue(s.PrivateKeyName, "private key")
		if err != nil {
			return err
		}
		assertion, err := clientAssertion(key, s.ClientID, d.asm.Issuer, h.o.Now())
		if err != nil {
			return wrapErr(CodeNoClient, err, "the private key {{secrets.%s}} of server %s cannot sign a client assertion", s.PrivateKeyName, h.o.Server)
		}
		method = "private_key_jwt"
		cfg.AuthStyle = oauth2.AuthStyleInParams
		cfg.EndpointParams.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		cfg.EndpointParams.Set("client_assertion", assertion)
	default:
		secret, err := h.secretValue(s.ClientSecretName, "client secret")
		if err != nil {
			return err
		}
		method = pickMethod(d.asm.TokenEndpointAuthMethodsSupported, true)
		cfg.ClientSecret, cfg.AuthStyle = secret, authStyle(method)
	}
	cctx := context.WithValue(ctx, oauth2.HTTPClient, h.g.client())
	tok, err := cfg.Token(cctx)
	if err != nil {
		if r := h.g.refusal(); r != nil {
			return r
		}
		return wrapErr(CodeTokenExchange, tokenErr(err), "the token endpoint refused the %s sign-in of server %s", s.Grant, h.o.Server)
	}
	granted, err := scopesOf(tok)
	if err != nil {
		return outOfBounds(origin(d.asm.TokenEndpoint), err)
	}
	if granted == nil {
		granted = scopes
	}
	// No refresh token is kept: the credentials themselves sign in again
	// when the access token expires.
	next := &Record{Server: h.o.Server, URL: h.o.URL, Issuer: d.asm.Issuer, Resource: d.resource, TokenURL: d.asm.TokenEndpoint,
		ClientID: s.ClientID, TokenAuth: method, Scopes: granted, AccessToken: tok.AccessToken, TokenType: tok.TokenType, Expiry: tok.Expiry}
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

// secretValue reads {{secrets.NAME}} from the secret stores; what it is
// (a client secret, a private key) only names it in the error.
func (h *Handler) secretValue(name, what string) (string, error) {
	if name == "" || h.o.Secret == nil {
		return "", newErr(CodeNoClient, "server %s signs in as a machine but declares no %s (oauth.client_secret, oauth.private_key or oauth.assertion)", h.o.Server, what)
	}
	v, ok, err := h.o.Secret(name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", newErr(CodeSignInRequired, "the %s {{secrets.%s}} of server %s has no value in any secret store (RELAVIUM_SECRET_<NAME> or <home>/secrets.toml)", what, name, h.o.Server)
	}
	return v, nil
}

// clientAssertion is the JWT of private_key_jwt (RFC 7523 §3): the client
// is its issuer and subject, the authorization server's issuer its
// audience, valid for assertionTTL, with a fresh jti; signed ES256 with a
// P-256 key or RS256 with an RSA key, given as PEM (PKCS #8, SEC 1 or
// PKCS #1).
func clientAssertion(keyPEM, clientID, audience string, now time.Time) (string, error) {
	key, err := parseKey(keyPEM)
	if err != nil {
		return "", err
	}
	alg := "RS256"
	if _, ok := key.(*ecdsa.PrivateKey); ok {
		alg = "ES256"
	}
	jti := make([]byte, 16)
	_, _ = rand.Read(jti)
	header, _ := json.Marshal(map[string]string{"alg": alg, "typ": "JWT"})
	claims, _ := json.Marshal(map[string]any{"iss": clientID, "sub": clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(assertionTTL).Unix(), "jti": base64.RawURLEncoding.EncodeToString(jti)})
	input := base64.RawURLEncoding.EncodeToString(header) + "." + base64.RawURLEncoding.EncodeToString(claims)
	sum := sha256.Sum256([]byte(input))
	var sig []byte
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		r, s, err := ecdsa.Sign(rand.Reader, k, sum[:])
		if err != nil {
			return "", err
		}
		sig = append(fixed(r, 32), fixed(s, 32)...) // JWS: r || s, 32 bytes each (RFC 7518 §3.4)
	case *rsa.PrivateKey:
		if sig, err = rsa.SignPKCS1v15(rand.Reader, k, crypto.SHA256, sum[:]); err != nil {
			return "", err
		}
	}
	return input + "." + base64.RawURLEncoding.EncodeToString(sig), nil
}

func parseKey(keyPEM string) (any, error) {
	b, _ := pem.Decode([]byte(keyPEM))
	if b == nil {
		return nil, errors.New("the value is not a PEM private key")
	}
	var key any
	var err error
	switch b.Type {
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(b.Bytes)
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(b.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(b.Bytes)
	}
	if err != nil {
		return nil, fmt.Errorf("the PEM block %q does not parse as a private key", b.Type)
	}
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		if k.Curve != elliptic.P256() {
			return nil, errors.New("an EC key must be on P-256 (ES256)")
		}
	case *rsa.PrivateKey:
		if k.N.BitLen() < 2048 {
			return nil, errors.New("an RSA key must have at least 2048 bits")
		}
	default:
		return nil, fmt.Errorf("a %T cannot sign ES256 or RS256", key)
	}
	return key, nil
}

// fixed is n big-endian in exactly size bytes.
func fixed(n *big.Int, size int) []byte {
	out := make([]byte, size)
	return n.FillBytes(out)
}
