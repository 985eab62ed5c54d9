package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// The calibration: the poisoned and benign corpus (testdata/poisoning.json)
// linted entry by entry, the precision and recall at each severity measured
// and held to what docs/ci-gates.md prints.

type corpusEntry struct {
	ID     string          `json:"id"`
	Label  string          `json:"label"`
	Source string          `json:"source"`
	Server string          `json:"server"`
	Tool   json.RawMessage `json:"tool"`
}

// score is one severity threshold's confusion counts over the corpus.
type score struct {
	tp, fp, fn, tn int
	missed, wrong  []string
}

func (s score) precision() float64 { return float64(s.tp) / float64(max(s.tp+s.fp, 1)) }
func (s score) recall() float64    { return float64(s.tp) / float64(max(s.tp+s.fn, 1)) }

// line is how docs/ci-gates.md states a score.
func (s score) line(sev string) string {
	return fmt.Sprintf("at %s: precision %.2f (%d of %d flagged are poisoned), recall %.2f (%d of %d poisoned flagged)",
		sev, s.precision(), s.tp, s.tp+s.fp, s.recall(), s.tp, s.tp+s.fn)
}

func measure(t *testing.T) (entries []corpusEntry, bySeverity map[string]score) {
	t.Helper()
	raw, err := os.ReadFile("testdata/poisoning.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Entries []corpusEntry `json:"entries"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	bySeverity = map[string]score{}
	for _, sev := range []string{SeverityError, SeverityWarning} {
		var s score
		for _, e := range c.Entries {
			var name struct {
				Name string `json:"name"`
			}
			if err := json.Unmarshal(e.Tool, &name); err != nil || name.Name == "" {
				t.Fatalf("%s: a tool without a name", e.ID)
			}
			rep := Run([]Server{{Name: e.Server, Defs: []Def{{Kind: KindTool, Name: name.Name, Raw: e.Tool}}}}, nil)
			flagged := false
			for _, f := range rep.Findings {
				flagged = flagged || rank(f.Severity) >= rank(sev)
			}
			switch {
			case e.Label == "poisoned" && flagged:
				s.tp++
			case e.Label == "poisoned":
				s.fn++
				s.missed = append(s.missed, e.ID)
			case flagged:
				s.fp++
				s.wrong = append(s.wrong, e.ID)
			default:
				s.tn++
			}
		}
		bySeverity[sev] = s
	}
	return c.Entries, bySeverity
}

// At least 20 of each, every entry with its source; precision and recall
// are what the docs print, and stay at or above the floor the docs defend.
func TestCalibrationCorpus(t *testing.T) {
	entries, scores := measure(t)
	n := map[string]int{}
	for _, e := range entries {
		n[e.Label]++
		if e.Source == "" {
			t.Errorf("%s has no source", e.ID)
		}
	}
	if n["poisoned"] < 20 || n["benign"] < 20 || len(n) != 2 {
		t.Fatalf("corpus: %v, want at least 20 poisoned and 20 benign", n)
	}
	doc, err := os.ReadFile("../../docs/ci-gates.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, sev := range []string{SeverityError, SeverityWarning} {
		s := scores[sev]
		t.Logf("%s; missed %v; wrongly flagged %v", s.line(sev), s.missed, s.wrong)
		if !strings.Contains(string(doc), s.line(sev)) {
			t.Errorf("docs/ci-gates.md does not say %q", s.line(sev))
		}
		if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), s.line(sev)) {
			t.Errorf("README.md does not say %q", s.line(sev))
		}
	}
	if s := scores[SeverityError]; s.precision() < 0.95 || s.recall() < 0.85 {
		t.Errorf("at error: precision %.2f, recall %.2f: below the floor (0.95, 0.85)", s.precision(), s.recall())
	}
	// The missed and wrongly flagged entries are named in the docs too.
	for _, sev := range []string{SeverityError} {
		for _, id := range append(scores[sev].missed, scores[sev].wrong...) {
			if !regexp.MustCompile("`" + regexp.QuoteMeta(id) + "`").Match(doc) {
				t.Errorf("docs/ci-gates.md does not name %s", id)
			}
		}
	}
}
