package tui

// Redact implements engine.Redactor over the session's per-server hosts, so
// the events engine.Trace makes of a call never carry a secret value the
// server was given (each host knows what it injected).
func (hs hostSet) Redact(server, s string) string {
	for _, e := range hs.snapshot() {
		if e.name == server {
			return e.h.Redact(server, s)
		}
	}
	return s
}
