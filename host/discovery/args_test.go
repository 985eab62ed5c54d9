package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestValidateRefusesArgumentsTheServerWouldReadDifferently(t *testing.T) {
	tool := oneTool(t, `{"type":"object","properties":{"mode":{"enum":["a","\ufffd"]},"deep":{}}}`)
	deep := strings.Repeat(`{"k":`, maxParseDepth+4) + `{"x":1,"x":2}` + strings.Repeat(`}`, maxParseDepth+4)
	cases := []struct {
		name, args, ptr, rule string
	}{
		{"lone surrogate value", `{"mode":"\ud800"}`, "/mode", "utf8"},
		{"lone low surrogate", `{"mode":"\udc00"}`, "/mode", "utf8"},
		{"invalid UTF-8 value", "{\"mode\":\"\xff\"}", "/mode", "utf8"},
		{"lone surrogate key", `{"deep":{"\ud800":1}}`, "/deep", "utf8"},
		{"invalid UTF-8 in an array", "{\"deep\":[\"ok\",\"\xc3\"]}", "/deep/1", "utf8"},
		{"nesting beyond the parse depth", `{"deep":` + deep + `}`, "/deep", "depth"},
	}
	for _, tc := range cases {
		err := tool.Validate(json.RawMessage(tc.args))
		var de *Error
		if !errors.As(err, &de) {
			t.Errorf("%s: Validate = %v, want E589", tc.name, err)
			continue
		}
		if de.ErrCode != CodeMalformedArgs || !strings.HasPrefix(de.Pointer, tc.ptr) || de.Rule != tc.rule {
			t.Errorf("%s: Validate = %s at %q rule %q; want %s at %q rule %q", tc.name, de.ErrCode, de.Pointer, de.Rule, CodeMalformedArgs, tc.ptr, tc.rule)
		}
		if de.ExitCode() != 2 {
			t.Errorf("%s: exit code %d, want 2", tc.name, de.ExitCode())
		}
	}
	// A proper surrogate pair and deep-but-bounded nesting stay valid.
	for _, ok := range []string{`{"mode":"a","deep":"\ud83d\ude00"}`, `{"deep":` + strings.Repeat(`[`, 100) + strings.Repeat(`]`, 100) + `}`} {
		if err := tool.Validate(json.RawMessage(ok)); err != nil {
			t.Errorf("Validate(%.40s…) = %v", ok, err)
		}
	}
}

func discoverRaw(t *testing.T, page string) *Catalogue {
	t.Helper()
	cat, err := Discover(context.Background(), "srv", fakeLister{"": page}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cat
}

// A number the validator (float64) would read as another value than the
// one sent is refused: a bound near 2^53 could pass the check and fail at
// the server, or the reverse.
func TestValidateRefusesNumbersItWouldReadAsOthers(t *testing.T) {
	tool := oneTool(t, `{"type":"object","properties":{"n":{"type":"integer","maximum":9007199254740992},"f":{"type":"number"}}}`)
	for args, want := range map[string]string{
		`{"n":9007199254740993}`:  "the integer 9007199254740993 is written 9007199254740992 by JavaScript",
		`{"f":[1e400]}`:           "beyond what a JSON number validator reads",
		`{"n":9007199254740992}`:  "",
		`{"f":0.1}`:               "",
		`{"n":-9007199254740992}`: "",
	} {
		err := tool.Validate(json.RawMessage(args))
		if want == "" {
			if err != nil {
				t.Errorf("Validate(%s) = %v", args, err)
			}
			continue
		}
		var de *Error
		if !errors.As(err, &de) || de.Code() != CodeMalformedArgs || de.Rule != "number" || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate(%s) = %v, want E589 rule number %q", args, err, want)
		}
	}
}
