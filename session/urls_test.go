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
