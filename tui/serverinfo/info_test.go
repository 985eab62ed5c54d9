package serverinfo

import (
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/render"
)

func monoStyles() *themes.Styles {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.Ascii)
	p, _ := themes.ByName(themes.Mono)
	return themes.NewStyles(r, p)
}

// The drift mark and detail say nothing without a lock or a difference,
// and the detail's server text is sanitized.
func TestDriftSaysNothingWithoutDifferences(t *testing.T) {
	st := monoStyles()
	d := backend.LockDrift{Differences: 2, First: "tool x\x1b[2J now read-only"}
	if DriftMark(st, d, false) != "" || DriftDetail(st, backend.LockDrift{}, true) != "" {
		t.Fatal("drift drawn with no lock or no difference")
	}
	if got := DriftMark(st, d, true); got != "⚠ drift 2 " {
		t.Fatalf("DriftMark = %q", got)
	}
	if got := DriftDetail(st, d, true); strings.Contains(got, "\x1b[2J") || !strings.Contains(got, "shows all 2") {
		t.Fatalf("DriftDetail = %q: want sanitized, naming the count", got)
	}
}

// A server not ready, or with no protocol yet, has no era lines; every
// line drawn fits the width.
func TestEraOnlyForAReadyKnownProtocol(t *testing.T) {
	st := monoStyles()
	if Era(st, "2025-11-25", "", false, 60) != nil || Era(st, "", "", true, 60) != nil {
		t.Fatal("era lines for a server not ready or with no protocol")
	}
	lines := Era(st, "2025-11-25", "auto", true, 30)
	if len(lines) < 4 || !strings.Contains(strings.Join(lines, " "), "negotiated") {
		t.Fatalf("Era = %q", lines)
	}
	for _, l := range lines {
		if render.Width(l) > 30 {
			t.Fatalf("line wider than 30: %q", l)
		}
	}
	na := NotAdmitted(st, &backend.NotAdmitted{Code: "E123", Problems: []string{"a loopback url\x07"}}, 40)
	if got := strings.Join(na, "\n"); strings.Contains(got, "\x07") || !strings.Contains(got, "E123 not admitted") {
		t.Fatalf("NotAdmitted = %q", na)
	}
}

// RetryHint counts down to the next attempt, never below zero.
func TestRetryHint(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := RetryHint(time.Time{}, 0, now); got != "r to retry" {
		t.Fatalf("RetryHint with no retry = %q", got)
	}
	if got := RetryHint(now.Add(-time.Second), 3, now); !strings.Contains(got, "attempt 3") || !strings.Contains(got, "r to retry now") {
		t.Fatalf("RetryHint past due = %q", got)
	}
}
