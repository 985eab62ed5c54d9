package consent

import (
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
)

// A grant store is a file anyone can edit: what consent ls prints from it
// reaches the terminal only through consent.Display, env kinds included.
func TestConsentListShowsStoredTextSafely(t *testing.T) {
	l := ConsentList{Path: "/home/x/.relavium/mcp-consent.ndjson", Grants: []*consent.Grant{{
		Digest: "v1:" + strings.Repeat("a", 64), Command: "/bin/srv", Cwd: "/p", GrantedAt: time.Unix(0, 0),
		EnvNames: []string{"TOKEN"},
		EnvKinds: []consent.EnvKindOf{{Name: "TOKEN", Kind: consent.EnvKind("secret-ref\x1b]0;owned\x07")}},
	}}}
	var b strings.Builder
	if err := l.WriteHuman(&b); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Fatalf("a terminal control from the store reached the output: %q", b.String())
	}
}
