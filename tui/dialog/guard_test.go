package dialog

import (
	"strings"
	"testing"
	"time"
)

// guardEpoch is an arbitrary fixed moment the guard's clock starts from.
var guardEpoch = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)

// The burst rule in time: keys before the grace, and a burst that began
// before it and runs past it, are dropped; a key after a pause acts.
func TestKeyGuardGraceAndBurst(t *testing.T) {
	at := guardEpoch
	g := Guard{now: func() time.Time { return at }, start: at.Add(-time.Hour)}
	d := &Text{Title: "x"}
	step := func(dt time.Duration) bool { at = at.Add(dt); return g.Key() }
	g.Note(d)
	if step(100 * time.Millisecond) {
		t.Fatal("a key 100 ms after the dialog opened acted")
	}
	for i := 0; i < 5; i++ { // typing on at 150 ms a key, past the grace
		if step(150 * time.Millisecond) {
			t.Fatalf("key %d of a burst begun inside the grace acted", i)
		}
	}
	if !step(BurstGap) {
		t.Fatal("a key after a pause did not act")
	}
	if !step(50 * time.Millisecond) {
		t.Fatal("a quick second key of a deliberate burst did not act")
	}
	g.Note(nil)
	if !step(time.Millisecond) {
		t.Fatal("with no dialog a key after the start's grace did not act")
	}
	g = Guard{now: func() time.Time { return at }, start: at}
	if step(100*time.Millisecond) || step(200*time.Millisecond) || step(200*time.Millisecond) {
		t.Fatal("a burst typed as the workbench started acted")
	}
}

// A dialog the person's own key asked for (ctrl+s: "this call?"): keys
// while it is on its way go nowhere; once it is on screen a key after a
// pause of 100 ms answers it, one of the run that brought it does not.
func TestKeyGuardExpectedDialog(t *testing.T) {
	at := guardEpoch
	g := Guard{now: func() time.Time { return at }, start: at.Add(-time.Hour)}
	step := func(dt time.Duration) bool { at = at.Add(dt); return g.Key() }
	step(time.Second) // ctrl+s
	g.Expect()
	at = at.Add(5 * time.Millisecond)
	g.Key()
	if !g.Awaiting() {
		t.Fatal("a key typed while the question is on its way is not held")
	}
	at = at.Add(10 * time.Millisecond)
	g.Note(&ToolConfirm{}) // the question arrives
	if step(10 * time.Millisecond) {
		t.Fatal("a key of the run that brought the dialog answered it")
	}
	if !strings.Contains(g.Why(), "no pause after the key that asked") {
		t.Fatalf("why: %s", g.Why())
	}
	if !step(100 * time.Millisecond) {
		t.Fatal("a key after a 100 ms pause did not answer the dialog the person asked for")
	}
	// Another dialog, not asked for: a key 300 ms after it opened is not
	// said to have come with no pause.
	at = at.Add(time.Second)
	g.Note(&Text{Title: "x"})
	if step(300 * time.Millisecond) {
		t.Fatal("a key 300 ms into an unasked-for dialog's grace acted")
	}
	if w := g.Why(); strings.Contains(w, "no pause") || !strings.Contains(w, "300ms before") {
		t.Fatalf("why after a 300 ms pause: %s", w)
	}
	// The wait for a question ends: settle, or the window.
	g.Note(nil)
	step(time.Second)
	g.Expect()
	g.Settle()
	if step(time.Millisecond); g.Awaiting() {
		t.Fatal("settled, still awaiting")
	}
	g.Expect()
	if step(expectWindow); g.Awaiting() {
		t.Fatal("still awaiting after the window")
	}
}
