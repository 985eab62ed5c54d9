package wire

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/fault"
)

// recentRecords is how many Records a Hub keeps for a late subscriber,
// and recentBytes how many message bytes they may hold together (a server
// sending 4 MiB messages cannot make the hub hold 1024 of them).
const (
	recentRecords = 1024
	recentBytes   = 16 << 20
)

// MaxFileBytes bounds a recording file; later Records are counted, not kept.
const MaxFileBytes = 64 << 20

// Hub collects the Records of every server of a session. Its methods are
// safe for concurrent use; a nil Hub records nothing.
type Hub struct {
	now func() time.Time

	mu      sync.Mutex
	seq     int64
	recent  []Record // oldest first, from head on
	head    int      // records before head were dropped
	held    int      // message bytes in recent[head:]
	subs    map[int]func(Record)
	subSeq  int
	path    string // file sink ("" none)
	buf     []byte
	dropped int64

	exchanges []Exchange // the network view's ring (exchange.go)
	xseq      int64
}

// NewHub returns a hub; path, when not empty, is the NDJSON file Close
// writes. now is the clock (time.Now when nil).
func NewHub(path string, now func() time.Time) *Hub {
	if now == nil {
		now = time.Now
	}
	return &Hub{now: now, subs: map[int]func(Record){}, path: path}
}

// Server returns the recorder of one server's connection. redact is the
// connection's own text redaction (secret values, the url's query); it is
// read when each message is recorded.
func (h *Hub) Server(name string, redact func(string) string) *Recorder {
	if h == nil {
		return nil
	}
	return &Recorder{hub: h, server: name, redact: redact, pending: map[string]pending{}}
}

// Subscribe calls fn with every later Record, in order, synchronously
// under the hub's lock (fn must not block and must not call the Hub; a
// view copies the Record and hands it to its own loop), and returns the
// Records kept so far and the function that ends the subscription.
func (h *Hub) Subscribe(fn func(Record)) (recent []Record, cancel func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.subSeq++
	id := h.subSeq
	h.subs[id] = fn
	return h.recentLocked(), func() {
		h.mu.Lock()
		delete(h.subs, id)
		h.mu.Unlock()
	}
}

// Recent returns the Records kept (the last 1024), oldest first.
func (h *Hub) Recent() []Record {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.recentLocked()
}

func (h *Hub) recentLocked() []Record { return append([]Record(nil), h.recent[h.head:]...) }

func (h *Hub) add(r Record) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	r.Seq = h.seq
	h.recent = append(h.recent, r)
	h.held += len(r.Message)
	for len(h.recent)-h.head > recentRecords || (h.held > recentBytes && h.head < len(h.recent)-1) {
		h.held -= len(h.recent[h.head].Message)
		h.recent[h.head] = Record{} // its message is freed now
		h.head++
	}
	if h.head > recentRecords {
		// Copy down once the dropped prefix outgrows the kept records:
		// amortised, each record is copied about once.
		h.recent = append(h.recent[:0:0], h.recent[h.head:]...)
		h.head = 0
	}
	if h.path != "" {
		if line, err := json.Marshal(r); err == nil && len(h.buf)+len(line)+1 <= MaxFileBytes {
			h.buf = append(append(h.buf, sanitize.EscapeJSON(line)...), '\n')
		} else {
			h.dropped++
		}
	}
	for _, fn := range h.subs {
		fn(r)
	}
}

// Close writes the file sink (when there is one) atomically: every Record
// kept, then, when the bound was reached, one line saying how many were
// dropped.
func (h *Hub) Close() error {
	if h == nil || h.path == "" {
		return nil
	}
	h.mu.Lock()
	data := append([]byte(nil), h.buf...)
	if h.dropped > 0 {
		line, _ := json.Marshal(map[string]any{"kind": "dropped", "count": h.dropped, "reason": "the recording reached its 64 MiB bound"})
		data = append(append(data, line...), '\n')
	}
	h.mu.Unlock()
	if err := atomicfile.Write(h.path, data); err != nil {
		return &Error{Base: fault.Base{ErrCode: CodeRecordWrite, Msg: "cannot write the recording " + h.path, Cause: err, Exit: codes.Exit(CodeRecordWrite)}}
	}
	return nil
}

// NewHubFor is the hub of a `--record FILE`: nil when path is "".
func NewHubFor(path string, now func() time.Time) *Hub {
	if path == "" {
		return nil
	}
	return NewHub(path, now)
}
