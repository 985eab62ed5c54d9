package urlref

import (
	"os/exec"
	"strings"
	"testing"
)

// urlref reads text: of relavium it imports consent (its reference reader)
// and nothing else.
func TestURLRefImportsConsentOnly(t *testing.T) {
	const module = "github.com/relavium/relavium/"
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, module+"consent/urlref").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	if len(imports) == 0 {
		t.Fatal("go list returned no imports to judge")
	}
	for _, p := range imports {
		if strings.Contains(p, ".") && p != module+"consent" {
			t.Errorf("urlref imports %s", p)
		}
	}
}
