package session

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/failure"
)

// A reference spelled into a host name chooses the host and carries its
// value there (to the name servers and the host): it is bound to the
// origin it makes, as a path's value is, and nothing is dialled before.
// A reference that is a whole part of the origin needs no binding. Every
// value dialled is redacted as the reference it stands for.
func TestURLPartOfAHostIsBoundToTheOriginItMakes(t *testing.T) {
	srv := config.Server{Name: "t", Transport: "http", URL: "https://{{env.TENANT}}.example.com:{{env.PORT}}/mcp"}
	env := map[string]string{"TENANT": "acme-tenant", "PORT": "8443"}
	lookup := func(n string) (string, bool) { v, ok := env[n]; return v, ok }
	bs := BindingsOf([]config.Server{srv}, lookup)
	if len(bs) != 1 || bs[0].Secret != "env.TENANT" || bs[0].Origin != "https://acme-tenant.example.com:8443" || fmt.Sprint(bs[0].Headers) != "[url]" {
		t.Fatalf("bindings %+v, want env.TENANT@https://acme-tenant.example.com:8443 carried by the url", bs)
	}
	s := New(Options{Home: t.TempDir(), LookupEnv: lookup}, []config.Server{srv})
	_, err := s.dialURL(srv, nil)
	if he := (*failure.Error)(nil); !errors.As(err, &he) || he.ErrCode != failure.CodeSecretUnbound || strings.Contains(he.Message(), "acme-tenant") {
		t.Fatalf("unbound: %v, want E523 that does not show the value", err)
	}
	u, err := s.dialURL(srv, []string{"env.TENANT"})
	if err != nil || u != "https://acme-tenant.example.com:8443/mcp" {
		t.Fatalf("dialled %q %v", u, err)
	}
	if got := s.Redactor().Text("at acme-tenant.example.com"); got != "at {{env.TENANT}}.example.com" {
		t.Errorf("redacted %q", got)
	}
}

// A host the person types (a VS Code file's https://${input:domain}/…) is
// read when the server connects — asked for (E520) until it is typed —
// and the guard judges the url it makes before anything is dialled; the
// typing binds what was typed for the server to the origin it makes (a
// token typed before the host included), and a value held in a store is
// still asked about there.
func TestURLTypedHost(t *testing.T) {
	srv := config.Server{Name: "ha", Transport: "http", URL: "https://{{secrets.domain}}/mcp_server/sse",
		Headers: []config.Header{{Name: "Authorization", Value: "Bearer {{secrets.token}}"}}}
	s := New(Options{Home: t.TempDir()}, []config.Server{srv})
	_, err := s.dialURL(srv, nil)
	if he := (*failure.Error)(nil); !errors.As(err, &he) || he.ErrCode != failure.CodeSecretMissing || !strings.Contains(he.Message(), "{{secrets.domain}}") {
		t.Fatalf("a host not typed: %v, want E520 naming it", err)
	}
	if bs := s.bindingsOf([]config.Server{srv}); len(bs) != 0 {
		t.Fatalf("bindings before the host is typed: %+v", bs)
	}
	s.ProvideSecret("ha", "token", "tok-typed-1")
	s.ProvideSecret("ha", "domain", "ha.example.com")
	decs, err := s.Bindings()
	if err != nil || len(decs) != 1 || decs[0].Binding.Secret != "token" || decs[0].Binding.Origin != "https://ha.example.com:443" || !decs[0].Approved() {
		t.Fatalf("decisions %+v %v, want token bound to the typed origin by the typing", decs, err)
	}
	u, err := s.dialURL(srv, boundSecrets("ha", decs))
	if err != nil || u != "https://ha.example.com/mcp_server/sse" {
		t.Fatalf("dialled %q %v", u, err)
	}
	if got := s.Redactor().Text("ha.example.com"); got != "{{secrets.domain}}" {
		t.Errorf("the typed host is shown as %q", got)
	}
	for _, c := range []struct{ host, says string }{{"169.254.169.254", "metadata"}, {"10.1.2.3", "allow_local_endpoint"}} {
		s := New(Options{Home: t.TempDir()}, []config.Server{srv})
		s.ProvideSecret("ha", "domain", c.host)
		opts := s.hostOptions()
		_, err := s.hostServer(srv, nil, nil, &opts)
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("typed %s: %v, want the guard's refusal (%s)", c.host, err, c.says)
		}
	}
	// Headless: the host from the environment's secret, a stored token
	// asked about at the origin it makes.
	env := map[string]string{"RELAVIUM_SECRET_DOMAIN": "ha.example.com", "RELAVIUM_SECRET_TOKEN": "tok-held"}
	h := New(Options{Home: t.TempDir(), LookupEnv: func(n string) (string, bool) { v, ok := env[n]; return v, ok }}, []config.Server{srv})
	decs, err = h.Bindings()
	if err != nil || len(decs) != 1 || decs[0].Approved() || decs[0].Binding.Flag() != "token@https://ha.example.com:443" {
		t.Fatalf("headless decisions %+v %v", decs, err)
	}
}
