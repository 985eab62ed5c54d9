package mcpjson

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// claudeState is a ~/.claude.json of about 1 MiB: many projects, each with
// its history and one server, as Claude Code keeps it.
func claudeState() []byte {
	var b strings.Builder
	b.WriteString(`{"numStartups": 42, "projects": {`)
	for i := 0; b.Len() < 1<<20; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"/data/p%d": {"history": [{"display": "refactor the parser in module %d, keep the tests green"}, {"display": "explain \"why\" here\n"}],`+
			`"mcpServers": {"s%d": {"type": "stdio", "command": "/usr/bin/srv", "args": ["--port", "${PORT:-%d}"], "env": {"LEVEL": "info"}}}}`, i, i, i, i)
	}
	b.WriteString("}}")
	return []byte(b.String())
}

// BenchmarkRatioParseClientFile measures reading a 1 MiB ~/.claude.json
// with positions (the nesting pre-scan, then the positioned reader) against
// encoding/json decoding the same bytes into any, in the same run. ratio is
// the reader's time over encoding/json's; target 2: keeping every value's
// line and column costs at most twice a plain decode. parse-ms is the
// absolute figure.
func BenchmarkRatioParseClientFile(b *testing.B) {
	data := claudeState()
	if _, p := Parse(".claude.json", data, StateLimits()); p != nil {
		b.Fatal(p)
	}
	var subject, baseline time.Duration
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		_, _ = Parse(".claude.json", data, StateLimits())
		subject += time.Since(start)
		start = time.Now()
		var v any
		_ = json.Unmarshal(data, &v)
		baseline += time.Since(start)
	}
	n := float64(max(b.N, 1))
	b.ReportMetric(float64(subject)/float64(baseline), "ratio")
	b.ReportMetric(2, "target")
	b.ReportMetric(float64(subject.Microseconds())/1000/n, "parse-ms")
}
