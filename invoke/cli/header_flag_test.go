package cli

import (
	"strings"
	"testing"

	"github.com/relavium/relavium/host/netguard"
)

// FuzzAdhocHeaders: whatever --header says, nothing panics; an accepted
// header passes the guard's name and value rules; a refusal is E593 and
// never repeats the value (the part after the colon).
func FuzzAdhocHeaders(f *testing.F) {
	for _, s := range []string{"Authorization: Bearer {{secrets.linear}}", "X-Api-Key:k", "Host: evil", "X Bad: v", "a\r\nb: c", ": v", "X-A: {{env.X}}"} {
		f.Add(s, "X-Other: zzzzzz")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		hs, err := AdhocHeaders([]string{a, b})
		if err != nil {
			if CodeOf(err) != CodeBadHeader {
				t.Fatalf("code %s: %v", CodeOf(err), err)
			}
			for _, flag := range []string{a, b} {
				name, v, ok := strings.Cut(flag, ":")
				v = strings.TrimSpace(v)
				if ok && len(v) >= 8 && !strings.Contains(name, v) && !strings.Contains("--header #: 'Name: value' (e.g. --header 'Authorization: Bearer {{secrets.linear}}')", v) && strings.Contains(err.Error(), v) {
					t.Fatalf("the refusal repeats the value %q: %v", v, err)
				}
			}
			return
		}
		for _, h := range hs {
			if f, why := netguard.CheckHeaderName(h.Name); f != netguard.HeaderOK {
				t.Fatalf("accepted name %q: %s", h.Name, why)
			}
			if f, why := netguard.CheckHeaderValue(h.Value); f != netguard.HeaderOK {
				t.Fatalf("accepted value of %q: %s", h.Name, why)
			}
		}
	})
}
