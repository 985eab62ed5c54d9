package projectfiles

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The gate text is quoted, so a text YAML would read otherwise stays text.
func TestWorkflowWritesTheFile(t *testing.T) {
	project := t.TempDir()
	Workflow(t, project, "ask", "read", `proceed: "yes"? #1`)
	b, err := os.ReadFile(filepath.Join(project, ".relavium", "workflows", "ask.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"id: ask\n", "side_effect: read\n", `gate: "proceed: \"yes\"? #1"`, "required: true"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the workflow lacks %q:\n%s", want, b)
		}
	}
}
