package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"
)

func quickReport(t *testing.T) *Report {
	t.Helper()
	target := func(_ context.Context, i int) Outcome {
		time.Sleep(time.Duration(i%5) * time.Millisecond)
		if i%25 == 0 {
			return Failed("isError")
		}
		return OK
	}
	r, err := Run(context.Background(), Plan{Rate: 200, Duration: time.Second, Timeout: time.Second}, target, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Target, r.Server = "echo\x1b[31m", "demo"
	return r
}

// The --json figures are named plainly and the histogram accounts for
// every measured request.
func TestReportJSONNamesEveryFigure(t *testing.T) {
	r := quickReport(t)
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "achieved_rate", "errors", "histogram", "timeline", "client_cpu_us_per_request", "schedule_lag_p99_ms"} {
		if _, ok := m[k]; !ok {
			t.Errorf("--json lacks %s", k)
		}
	}
	var sum int64
	for _, b := range r.Histogram {
		sum += b.Count
	}
	if sum != r.Count || r.Count != 200 {
		t.Errorf("histogram holds %d of %d requests", sum, r.Count)
	}
	if !(r.P50MS <= r.P90MS && r.P90MS <= r.P99MS && r.P99MS <= r.P999MS && r.P999MS <= r.MaxMS) {
		t.Errorf("percentiles out of order: %+v", r)
	}
	if r.Errors["isError"] != 8 {
		t.Errorf("errors %v, want isError ×8", r.Errors)
	}
}

// The drawing fits its width, sanitizes the server's names, and draws the
// histogram and the time chart.
func TestDrawPlainAndRich(t *testing.T) {
	r := quickReport(t)
	var plain bytes.Buffer
	if err := r.WriteHuman(&plain); err != nil {
		t.Fatal(err)
	}
	out := plain.String()
	if strings.Contains(out, "\x1b") {
		t.Errorf("plain output holds an escape: %q", out)
	}
	for _, want := range []string{"latency histogram", "latency over time", "p99", "isError ×8", "█"} {
		if !strings.Contains(out, want) {
			t.Errorf("plain output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
	var rich bytes.Buffer
	if err := r.Draw(&rich, Render{Width: 100, Rich: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.ContainsAny(rich.String(), "⠁⠂⠄⡀⠈⠐⠠⢀⣀⣿") {
		t.Errorf("rich output has no braille line:\n%s", rich.String())
	}
	if strings.Contains(rich.String(), "\x1b[31m") {
		t.Errorf("the server's escape reached the terminal")
	}
}

// --save writes what --baseline reads back, and the comparison marks what
// got worse.
func TestSaveBaselineCompare(t *testing.T) {
	r := quickReport(t)
	path := filepath.Join(t.TempDir(), "base.json")
	if err := r.Save(path); err != nil {
		t.Fatal(err)
	}
	base, err := LoadBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	if base.P99MS != r.P99MS || base.Count != r.Count || len(base.Timeline) != len(r.Timeline) {
		t.Fatalf("round trip changed the report")
	}
	now := *r
	now.P99MS = r.P99MS * 2
	now.AchievedRate = r.AchievedRate / 2
	c := Compare(&now, base, path)
	worse := map[string]bool{}
	for _, row := range c.Rows {
		worse[row.Figure] = row.Worse
	}
	if !worse["p99_ms"] || !worse["achieved_rate"] || worse["p50_ms"] {
		t.Errorf("worse rows: %v", worse)
	}
	var b bytes.Buffer
	_ = c.WriteHuman(&b)
	if !strings.Contains(b.String(), "2.00×") || !strings.Contains(b.String(), "▲ worse") {
		t.Errorf("table:\n%s", b.String())
	}
}

// A baseline that is not a regular file, too large, or not a report is
// refused (E722), a FIFO without waiting for a writer.
func TestBaselineRefusals(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, bytes.Repeat([]byte(" "), MaxReportBytes+1), 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte(`{"version":2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(dir, "unknown")
	if err := os.WriteFile(unknown, []byte(`{"version":1,"evil":true}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, big, other, unknown, dir, filepath.Join(dir, "missing")} {
		if _, err := LoadBaseline(p); !hasCode(err, CodeBaseline) {
			t.Errorf("%s: %v, want %s", filepath.Base(p), err, CodeBaseline)
		}
	}
}

func TestThresholds(t *testing.T) {
	r := &Report{Mode: "open", Rate: 100, AchievedRate: 90, Count: 1000, ErrorCount: 2, ErrorRate: 0.002, P99MS: 180}
	p, err := ParsePercent("--max-error-rate", "0.1%")
	if err != nil || p != 0.001 {
		t.Fatalf("0.1%% = %v, %v", p, err)
	}
	minRate, _ := ParsePercent("--min-rate", "95%")
	fails := Thresholds{MaxP99: 150 * time.Millisecond, MaxErrorRate: p, MinRate: minRate}.Check(r)
	if len(fails) != 3 {
		t.Fatalf("failures %v, want all three", fails)
	}
	if s := fails[0].String(); s != "--max-p99 150 ms: measured 180 ms" {
		t.Errorf("%q", s)
	}
	if fails := (Thresholds{MaxP99: 200 * time.Millisecond, MaxErrorRate: 0.01, MinRate: 0.9}).Check(r); len(fails) != 0 {
		t.Errorf("met thresholds failed: %v", fails)
	}
	if fails := NoThresholds.Check(r); len(fails) != 0 {
		t.Errorf("no thresholds failed: %v", fails)
	}
	for _, bad := range []string{"x", "101%", "-1%", "NaN%"} {
		if _, err := ParsePercent("--min-rate", bad); !hasCode(err, CodeBadThreshold) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestArgsFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.ndjson")
	os.WriteFile(good, []byte("{\"message\":\"a\"}\n\n{\"message\":\"b\"}\n"), 0o600)
	sets, err := ReadArgsFile(good)
	if err != nil || len(sets) != 2 || string(sets[1]) != `{"message":"b"}` {
		t.Fatalf("%q %v", sets, err)
	}
	for name, body := range map[string]string{
		"array":  "[1]\n",
		"deep":   strings.Repeat("[", 100) + "\n",
		"empty":  "\n\n",
		"broken": "{\"a\":1}\n{\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(body), 0o600)
		if _, err := ReadArgsFile(p); !hasCode(err, CodeArgsFile) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
