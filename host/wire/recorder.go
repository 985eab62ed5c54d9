package wire

import (
	"encoding/json"
	"sync"
	"time"
)

// Recorder records one server's messages. A nil Recorder records nothing.
type Recorder struct {
	hub    *Hub
	server string
	redact func(string) string

	mu      sync.Mutex
	pending map[string]pending // dir + id of an unanswered request
}

type pending struct {
	method string
	at     time.Time
}

// maxPending bounds unanswered requests remembered for pairing.
const maxPending = 4096

// Observe records one message seen in direction dir (Send or Recv). raw
// is not retained.
func (r *Recorder) Observe(dir string, raw []byte) {
	if r == nil {
		return
	}
	rec := Record{Time: r.hub.now().UTC(), Server: r.server, Dir: dir, Size: len(raw)}
	if len(raw) > MaxMessage {
		rec.Kind, rec.Truncated = KindInvalid, true
		r.hub.add(rec)
		return
	}
	if !classify(&rec, raw) {
		rec.Truncated = true
		r.hub.add(rec)
		return
	}
	r.pair(&rec)
	if msg, ok := redactMessage(raw, r.redact); ok {
		rec.Message = msg
	} else {
		rec.Truncated = true
	}
	r.hub.add(rec)
}

// pair remembers a request and matches a response to it.
func (r *Recorder) pair(rec *Record) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch rec.Kind {
	case KindRequest:
		if len(r.pending) < maxPending {
			r.pending[rec.Dir+string(rec.ID)] = pending{method: rec.Method, at: rec.Time}
		}
	case KindResponse, KindError:
		other := Send
		if rec.Dir == Send {
			other = Recv
		}
		key := other + string(rec.ID)
		if p, ok := r.pending[key]; ok {
			delete(r.pending, key)
			rec.Method = p.method
			rec.RTTMicros = max(rec.Time.Sub(p.at).Microseconds(), 0)
		}
	}
}

// observeBatch records raw, or each member of a JSON-RPC batch.
func (r *Recorder) observeBatch(dir string, raw []byte) {
	trimmed := trimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '[' && len(trimmed) <= MaxMessage {
		var batch []json.RawMessage
		if json.Unmarshal(trimmed, &batch) == nil {
			for _, m := range batch {
				r.Observe(dir, m)
			}
			return
		}
	}
	r.Observe(dir, trimmed)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r' || b[len(b)-1] == '\n') {
		b = b[:len(b)-1]
	}
	return b
}
