package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/failure"
)

// A secret in a url's query that no store holds (an ${input:id} of a
// client file, declared or not) is E520, as a header's is — so the
// workbench asks for it — not E523: there is nothing to bind. Typed for
// the server, it is bound to that origin and the url carries it; a secret
// a store holds is still never read unbound (E523).
func TestURLSecretMissingIsAskedThenBoundByTyping(t *testing.T) {
	srv := config.Server{Name: "q", Transport: "http", URL: "https://api.example.com/mcp?key={{secrets.k}}&other={{secrets.held}}"}
	env := map[string]string{"RELAVIUM_SECRET_HELD": "held-value"}
	s := New(Options{Home: t.TempDir(), LookupEnv: func(n string) (string, bool) { v, ok := env[n]; return v, ok }}, []config.Server{srv})
	_, err := s.dialURL(srv, nil)
	if he := (*failure.Error)(nil); !errors.As(err, &he) || he.ErrCode != failure.CodeSecretMissing || !strings.Contains(he.Message(), "{{secrets.k}}") || strings.Contains(he.Message(), "held") {
		t.Fatalf("a url secret no store holds: %v, want E520 naming k only", err)
	}
	s.ProvideSecret("q", "k", "typed-k")
	decs, err := s.Bindings()
	if err != nil {
		t.Fatal(err)
	}
	bound := boundSecrets("q", decs)
	if len(bound) != 1 || bound[0] != "k" {
		t.Fatalf("bound %v (%+v), want k bound by typing", bound, decs)
	}
	for _, d := range decs {
		if d.Binding.Secret == "k" && d.Why != consent.ByTyping {
			t.Errorf("k approved by %s, want typing", d.Why)
		}
	}
	_, err = s.dialURL(srv, bound)
	if he := (*failure.Error)(nil); !errors.As(err, &he) || he.ErrCode != failure.CodeSecretUnbound || !strings.Contains(he.Message(), "{{secrets.held}}") {
		t.Fatalf("a held secret not bound: %v, want E523", err)
	}
	u, err := s.dialURL(srv, []string{"k", "held"})
	if err != nil || u != "https://api.example.com/mcp?key=typed-k&other=held-value" {
		t.Fatalf("dialled %q %v", u, err)
	}
}
