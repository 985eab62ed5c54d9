package sanitize

import (
	"strings"
	"testing"
)

// BenchmarkSanitizeClean measures Text on clean prose (the common case).
func BenchmarkSanitizeClean(b *testing.B) {
	s := strings.Repeat("Search the repository's issues by query; returns up to 100 results. 日本語 ☃\n", 100)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Text(s)
	}
}

// BenchmarkSanitizeHostile measures Text on text dense with escapes,
// bidi and invisible characters.
func BenchmarkSanitizeHostile(b *testing.B) {
	s := strings.Repeat("a\x1b[31mred\x1b[0m \u202eevil\u202c \x1b]0;t\x07\u200b\U000e0041 \x9b2J é\r\n", 200)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = Text(s)
	}
}

// BenchmarkSanitizeCheck measures the semantic check on a clean string.
func BenchmarkSanitizeCheck(b *testing.B) {
	s := strings.Repeat("property_name_é_", 200)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Check(s)
	}
}
