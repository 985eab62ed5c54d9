package oauth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net/url"
	"strings"
	"testing"
	"time"
)

func secretsOf(m map[string]string) func(string) (string, bool, error) {
	return func(name string) (string, bool, error) { v, ok := m[name]; return v, ok, nil }
}

// A client_credentials server signs in headless, on its 401, with the
// client secret from the secret stores (client_secret_basic): no browser,
// no person, the resource parameter sent, the token stored and used.
func TestClientCredentialsWithASecret(t *testing.T) {
	f := newFixture(t)
	h := f.handler(nil, Settings{Declared: true, Grant: GrantClientCredentials, ClientID: "ci-bot", ClientSecretName: "ci"})
	h.o.Secret = secretsOf(map[string]string{"ci": "s3cret"})
	defer h.Close()
	if ts, err := h.TokenSource(context.Background()); err != nil || ts != nil {
		t.Fatalf("before sign-in: %v, %v (want no token and no error: the 401 signs in)", ts, err)
	}
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatalf("Authorize: %v", err)
	}
	form, _ := f.as.form.Load().(url.Values)
	if form.Get("grant_type") != "client_credentials" || form.Get("resource") != f.as.srv.URL+"/mcp" || form.Get("client_secret") != "" {
		t.Fatalf("token request %v", form)
	}
	if b, _ := f.as.basic.Load().([2]string); b != [2]string{"ci-bot", "s3cret"} {
		t.Fatalf("basic auth %q", b)
	}
	ts, err := h.TokenSource(context.Background())
	if err != nil || ts == nil {
		t.Fatalf("TokenSource: %v", err)
	}
	if tok, err := ts.Token(); err != nil || tok.AccessToken != "secret-access-1" {
		t.Fatalf("token %v, %v", tok, err)
	}

	// No value in any secret store: the sign-in names the secret, not its value.
	f = newFixture(t)
	g := f.handler(nil, Settings{Declared: true, Grant: GrantClientCredentials, ClientID: "ci-bot", ClientSecretName: "missing"})
	g.o.Secret = secretsOf(nil)
	req, resp = f.unauthorized(401, "")
	if err := g.Authorize(context.Background(), req, resp); codeOf(err) != CodeSignInRequired || !strings.Contains(err.Error(), "{{secrets.missing}}") {
		t.Fatalf("missing secret: %v", err)
	}
}

// private_key_jwt: the token request carries a client assertion signed
// ES256 with the key from the secret stores, whose claims name the client
// (iss, sub) and the authorization server (aud); the signature verifies
// with the public key.
func TestClientCredentialsWithAPrivateKey(t *testing.T) {
	f := newFixture(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	h := f.handler(nil, Settings{Declared: true, Grant: GrantClientCredentials, ClientID: "ci-bot", PrivateKeyName: "ci_key"})
	h.o.Secret = secretsOf(map[string]string{"ci_key": keyPEM})
	defer h.Close()
	if err := h.SignIn(context.Background()); err != nil {
		t.Fatalf("SignIn: %v", err)
	}
	form, _ := f.as.form.Load().(url.Values)
	if form.Get("grant_type") != "client_credentials" || form.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		t.Fatalf("token request %v", form)
	}
	parts := strings.Split(form.Get("client_assertion"), ".")
	if len(parts) != 3 {
		t.Fatalf("assertion %q", form.Get("client_assertion"))
	}
	var header map[string]string
	var claims map[string]any
	hb, _ := base64.RawURLEncoding.DecodeString(parts[0])
	cb, _ := base64.RawURLEncoding.DecodeString(parts[1])
	_ = json.Unmarshal(hb, &header)
	_ = json.Unmarshal(cb, &claims)
	if header["alg"] != "ES256" || claims["iss"] != "ci-bot" || claims["sub"] != "ci-bot" || claims["aud"] != f.as.srv.URL || claims["jti"] == "" {
		t.Fatalf("header %v claims %v", header, claims)
	}
	sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(&key.PublicKey, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("the assertion's signature does not verify with the public key")
	}
	if strings.Contains(form.Encode(), "PRIVATE") {
		t.Fatal("the key itself was sent")
	}
}

func TestClientAssertionRefusesUnusableKeys(t *testing.T) {
	weak, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	der, _ := x509.MarshalPKCS8PrivateKey(weak)
	for name, k := range map[string]string{
		"not pem": "hello",
		"p-384":   string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"garbage": string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("x")})),
	} {
		if _, err := clientAssertion(k, "c", "https://as.example", time.Now()); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// jwt_bearer: the workload's token from the secret stores is the assertion
// of an RFC 7523 grant; no client secret is sent.
func TestJWTBearerExchangesTheWorkloadToken(t *testing.T) {
	f := newFixture(t)
	h := f.handler(nil, Settings{Declared: true, Grant: GrantJWTBearer, ClientID: "wl", AssertionName: "wl_token"})
	h.o.Secret = secretsOf(map[string]string{"wl_token": "eyJ.workload.jwt"})
	defer h.Close()
	req, resp := f.unauthorized(401, "")
	if err := h.Authorize(context.Background(), req, resp); err != nil {
		t.Fatalf("Authorize: %v", err)
	}
	form, _ := f.as.form.Load().(url.Values)
	if form.Get("grant_type") != "urn:ietf:params:oauth:grant-type:jwt-bearer" || form.Get("assertion") != "eyJ.workload.jwt" ||
		form.Get("client_id") != "wl" || form.Get("client_secret") != "" || f.as.basic.Load() != nil {
		t.Fatalf("token request %v (basic %v)", form, f.as.basic.Load())
	}
}
