package consent

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	pinA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	pinB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func fixedClock() func() time.Time { return func() time.Time { return now } }

func TestApprovalsRememberExactDefinitionAndLapse(t *testing.T) {
	home := tempHome(t)
	a := OpenApprovals(home, fixedClock())
	keyA := ToolKey{Server: "fs", Tool: "delete_all_files", Digest: pinA}
	keyB := ToolKey{Server: "fs", Tool: "delete_all_files", Digest: pinB}
	set, err := a.Fold(nil)
	if err != nil || set.Len() != 0 {
		t.Fatalf("a missing store folds to nothing: %v %d", err, set.Len())
	}
	if _, err := os.Stat(a.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a fold created the store")
	}
	if err := a.Approve(keyA); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(a.Path())
	if err != nil || st.Mode().Perm() != 0o600 || filepath.Base(a.Path()) != "tool-approvals.ndjson" {
		t.Fatalf("store file: %v %v", err, st)
	}
	set, err = a.Fold(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !set.Approved(keyA) || set.Approved(keyB) {
		t.Fatal("an approval must hold for its exact definition digest and no other")
	}
	if set.Approved(ToolKey{Server: "other", Tool: "delete_all_files", Digest: pinA}) ||
		set.Approved(ToolKey{Server: "fs", Tool: "other", Digest: pinA}) || set.Approved(ToolKey{Server: "fs", Tool: "delete_all_files"}) {
		t.Fatal("an approval leaked to another server, tool or an empty digest")
	}
	// A later approval of the same tool replaces the earlier definition.
	if err := a.Approve(keyB); err != nil {
		t.Fatal(err)
	}
	set, _ = a.Fold(nil)
	if set.Approved(keyA) || !set.Approved(keyB) {
		t.Fatal("approving a new definition must replace the old one")
	}
	// A lapse withdraws it; a fold narrowed to other tools keeps nothing.
	if err := a.Lapse("fs", "delete_all_files"); err != nil {
		t.Fatal(err)
	}
	set, _ = a.Fold(nil)
	if set.Approved(keyB) || set.Len() != 0 {
		t.Fatal("a lapse must withdraw the approval")
	}
	if err := a.Approve(keyA); err != nil {
		t.Fatal(err)
	}
	if set, _ := a.Fold(func(s, tool string) bool { return tool == "echo" }); set.Len() != 0 {
		t.Fatal("a narrowed fold kept a tool it was not asked about")
	}
	raw, _ := os.ReadFile(a.Path())
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	want := []string{
		`{"v":1,"server":"fs","tool":"delete_all_files","digest":"` + pinA + `","approvedAt":"2026-03-04T05:06:07.890Z"}`,
		`{"v":1,"server":"fs","tool":"delete_all_files","digest":"` + pinB + `","approvedAt":"2026-03-04T05:06:07.890Z"}`,
		`{"v":1,"server":"fs","tool":"delete_all_files","lapsedAt":"2026-03-04T05:06:07.890Z"}`,
		`{"v":1,"server":"fs","tool":"delete_all_files","digest":"` + pinA + `","approvedAt":"2026-03-04T05:06:07.890Z"}`,
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("the store is append-only with these lines:\n got %q\nwant %q", lines, want)
	}
}

func TestApprovalsFailClosedOnACorruptLine(t *testing.T) {
	key := ToolKey{Server: "fs", Tool: "t", Digest: pinA}
	good := `{"v":1,"server":"fs","tool":"t","digest":"` + pinA + `","approvedAt":"2026-01-01T00:00:00.000Z"}`
	for name, content := range map[string]string{
		"garbage":           good + "\nnot json\n",
		"torn last line":    good + "\n" + `{"v":1,"server":"fs","tool":"t","lapsedAt":"2026-`,
		"bad digest":        `{"v":1,"server":"fs","tool":"t","digest":"v1:abc","approvedAt":"2026-01-01T00:00:00Z"}` + "\n" + good + "\n",
		"no time":           `{"v":1,"server":"fs","tool":"t","digest":"` + pinA + `"}` + "\n",
		"both shapes":       `{"v":1,"server":"fs","tool":"t","digest":"` + pinA + `","approvedAt":"2026-01-01T00:00:00Z","lapsedAt":"2026-01-01T00:00:00Z"}` + "\n",
		"version 2":         `{"v":2,"server":"fs","tool":"t"}` + "\n",
		"no server":         `{"v":1,"tool":"t","lapsedAt":"2026-01-01T00:00:00Z"}` + "\n",
		"number server":     `{"v":1,"server":7,"tool":"t","lapsedAt":"2026-01-01T00:00:00Z"}` + "\n",
		"case-variant v":    `{"V":1,"server":"fs","tool":"t","lapsedAt":"2026-01-01T00:00:00Z"}` + "\n",
		"array":             "[]\n",
		"over the line cap": good + "\n" + `{"v":1,"pad":"` + strings.Repeat("x", maxApprovalLine) + `"}` + "\n" + good + "\n",
		"over-long value":   `{"v":1,"server":"` + strings.Repeat("s", maxApprovalServer+1) + `","tool":"t","lapsedAt":"2026-01-01T00:00:00Z"}` + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			home := tempHome(t)
			a := OpenApprovals(home, fixedClock())
			if err := os.WriteFile(a.Path(), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			set, err := a.Fold(nil)
			assertCode(t, err, CodeApprovalsUnreadable, "line")
			if set == nil || set.Len() != 0 || set.Approved(key) {
				t.Fatal("a store that fails closed must hold no approvals")
			}
			var ce *Error
			if !errors.As(err, &ce) || ce.Data == nil {
				t.Fatalf("the refusal carries no data: %#v", err)
			}
			// Writing into it would report a remembered approval that has no
			// effect: refused with the same code, nothing appended.
			assertCode(t, a.Approve(key), CodeApprovalsUnreadable, "line")
			assertCode(t, a.Lapse("fs", "t"), CodeApprovalsUnreadable, "line")
			if raw, _ := os.ReadFile(a.Path()); string(raw) != content {
				t.Fatal("a refused store was written")
			}
		})
	}
	// Blank lines and CRLF are whitespace, unknown keys are ignored.
	home := tempHome(t)
	a := OpenApprovals(home, fixedClock())
	content := "\n" + strings.Replace(good, `"tool"`, `"note":"x","tool"`, 1) + "\r\n\n"
	if err := os.WriteFile(a.Path(), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if set, err := a.Fold(nil); err != nil || !set.Approved(key) {
		t.Fatalf("a well-formed store: %v", err)
	}
}

func TestApprovalsUseTheGrantStoresSafetyChecks(t *testing.T) {
	key := ToolKey{Server: "fs", Tool: "t", Digest: pinA}
	// A symlink is never followed.
	home := tempHome(t)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(target, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(home, ApprovalFile)); err != nil {
		t.Fatal(err)
	}
	a := OpenApprovals(home, fixedClock())
	_, err := a.Fold(nil)
	assertCode(t, err, CodeApprovalsRefused, "symlink")
	assertCode(t, a.Approve(key), CodeApprovalsRefused, "tool-approval store is never read or written through a link")
	if raw, _ := os.ReadFile(target); len(raw) != 0 {
		t.Fatal("written through a symlink")
	}
	// A loose file mode and a group-writable home are refused.
	home = tempHome(t)
	a = OpenApprovals(home, fixedClock())
	if err := os.WriteFile(a.Path(), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(a.Path(), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = a.Fold(nil)
	assertCode(t, err, CodeApprovalsRefused, "must be 0600")
	assertCode(t, a.Approve(key), CodeApprovalsRefused, "chmod 600")
	home = tempHome(t)
	if err := os.Chmod(home, 0o770); err != nil {
		t.Fatal(err)
	}
	assertCode(t, OpenApprovals(home, fixedClock()).Approve(key), CodeHomeUnsafe, "group or others can write")
	// A key that is not a tool-definition digest is never written.
	home = tempHome(t)
	a = OpenApprovals(home, fixedClock())
	assertCode(t, a.Approve(ToolKey{Server: "fs", Tool: "t", Digest: "v1:" + strings.Repeat("a", 64)}), CodeApprovalsIO, "not a tool-definition digest")
	assertCode(t, a.Approve(ToolKey{Server: "", Tool: "t", Digest: pinA}), CodeApprovalsIO, "server")
	if _, err := os.Stat(a.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused key created the store")
	}
}

func TestClearCallNeverRidesOnAnnotationsOrAStaleApproval(t *testing.T) {
	home := tempHome(t)
	a := OpenApprovals(home, fixedClock())
	key := ToolKey{Server: "fs", Tool: "delete_all_files", Digest: pinA}
	if err := a.Approve(key); err != nil {
		t.Fatal(err)
	}
	set, err := a.Fold(nil)
	if err != nil {
		t.Fatal(err)
	}
	other := ToolKey{Server: "fs", Tool: "delete_all_files", Digest: pinB}
	for _, c := range []struct {
		name string
		req  CallRequest
		want Clearance
	}{
		{"nothing", CallRequest{Key: other}, ""},
		{"yes", CallRequest{Key: other, Yes: true}, ClearedByYes},
		{"approval", CallRequest{Key: key}, ClearedByApproval},
		{"approval of another definition", CallRequest{Key: other}, ""},
		{"auto-approve", CallRequest{Key: other, AutoApprove: true}, ClearedByAutoApprove},
		{"changed: approval does not speak for it", CallRequest{Key: key, Changed: true}, ""},
		{"changed: auto-approve does not speak for it", CallRequest{Key: key, Changed: true, AutoApprove: true}, ""},
		{"changed: --yes does", CallRequest{Key: key, Changed: true, Yes: true}, ClearedByYes},
	} {
		if got := ClearCall(c.req, set); got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	if ClearCall(CallRequest{Key: key}, nil) != "" {
		t.Error("a nil set approves nothing")
	}
}

func FuzzParseApprovalLine(f *testing.F) {
	for _, s := range []string{
		`{"v":1,"server":"fs","tool":"t","digest":"` + pinA + `","approvedAt":"2026-01-01T00:00:00.000Z"}`,
		`{"v":1,"server":"fs","tool":"t","lapsedAt":"2026-01-01T00:00:00Z"}`,
		`{"v":1,"server":"fs","tool":"t","digest":null,"lapsedAt":"2026-01-01T00:00:00Z"}`,
		`{"v":1.0,"server":"fs"}`, `{}`, `{"v":1,"server":"\u0000"}`, `[1]`, `{"v":1,"server":"a","server":"b"}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.Trim(line, " \t\r\n")
		if line == "" || strings.ContainsRune(line, '\n') {
			return
		}
		rec, reason := parseApprovalLine(line)
		if reason != "" {
			return
		}
		// Whatever parses is a well-formed record that round-trips.
		if checkToolKey(rec.ToolKey, !rec.lapse) != nil {
			t.Fatalf("accepted a malformed key: %+v", rec)
		}
		l := approvalLine{V: 1, Server: rec.Server, Tool: rec.Tool}
		if rec.lapse {
			l.LapsedAt = rec.at.UTC().Format(time.RFC3339Nano)
		} else {
			l.Digest, l.ApprovedAt = rec.Digest, rec.at.UTC().Format(time.RFC3339Nano)
		}
		b, err := marshalApproval(l)
		if err != nil {
			t.Fatal(err)
		}
		again, reason := parseApprovalLine(strings.TrimSuffix(string(b), "\n"))
		if reason != "" || again.ToolKey != rec.ToolKey || again.lapse != rec.lapse || !again.at.Equal(rec.at) {
			t.Fatalf("round trip: %q → %+v (%s)", b, again, reason)
		}
	})
}
