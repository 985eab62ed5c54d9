package fault

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

var table = Table{
	{"E001", Failure, "a runtime failure"},
	{"E002", Usage, "a usage mistake"},
	{"E003", Varies, "the site chooses"},
}

func TestTableSetsExitFromClass(t *testing.T) {
	for _, c := range []struct {
		code Code
		exit int
	}{{"E001", 1}, {"E002", 2}, {"E003", 1}, {"E999", 1}} {
		e := table.New(c.code, "x %d", 1)
		if e.ExitCode() != c.exit || ExitOf(fmt.Errorf("wrapped: %w", e)) != c.exit {
			t.Errorf("%s exits %d, want %d", c.code, e.ExitCode(), c.exit)
		}
		if e.Msg != "x 1" {
			t.Errorf("message %q", e.Msg)
		}
	}
	if ExitOf(nil) != ExitOK || ExitOf(errors.New("plain")) != ExitFailure {
		t.Error("nil exits 0, an uncoded error 1")
	}
}

func TestErrorShape(t *testing.T) {
	inner := table.New("E002", "inner")
	e := table.Wrap("E001", inner, "outer %s", "msg")
	if got := e.Error(); got != "E001: outer msg: E002: inner" {
		t.Errorf("Error() = %q", got)
	}
	if !errors.Is(e, inner) || CodeOf(e, Internal) != "E001" || CodeOf(errors.New("x"), Internal) != Internal {
		t.Error("chain or code lost")
	}
	same := table.Wrap("E002", inner, "again")
	if got := same.Error(); got != "E002: again: inner" {
		t.Errorf("a same-code cause says its code twice: %q", got)
	}
	if MessageOf(e) != "outer msg" || MessageOf(fmt.Errorf("E001: bare: %w", errors.New("why"))) != "E001: bare" {
		t.Errorf("MessageOf: %q", MessageOf(e))
	}
	b, err := json.Marshal(CauseOf(table.Wrap("E001", fmt.Errorf("ctx: %w", inner), "top"), strings.ToUpper))
	if err != nil || string(b) != `"CTX: E002: INNER"` {
		t.Errorf("CauseOf text: %s %v", b, err)
	}
	b, _ = json.Marshal(CauseOf(e, nil))
	if string(b) != `{"cause":null,"code":"E002","message":"inner"}` {
		t.Errorf("CauseOf coded: %s", b)
	}
	if CauseOf(inner, nil) != nil {
		t.Error("no cause is nil")
	}
	joined := errors.Join(errors.New("a"), inner)
	b, _ = json.Marshal(CauseOf(joined, nil))
	if string(b) != `["a",{"cause":null,"code":"E002","message":"inner"}]` {
		t.Errorf("CauseOf joined: %s", b)
	}
}

// TestLeafImportsOnlyStandardLibrary: every package may import fault, so
// fault imports nothing of the module's and nothing outside the standard
// library.
func TestLeafImportsOnlyStandardLibrary(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/relavium/relavium/fault").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 5 {
		t.Fatalf("go list returned too little to judge: %q", deps)
	}
	for _, p := range deps {
		if p == "github.com/relavium/relavium/fault" {
			continue
		}
		if first, _, _ := strings.Cut(p, "/"); strings.Contains(first, ".") {
			t.Errorf("fault depends on %s", p)
		}
	}
}
