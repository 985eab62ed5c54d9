package route

import (
	"sync"

	"github.com/relavium/relavium/engine"
)

// MaxQueuedProgress bounds the progress a call's stream holds while its
// consumer is behind. Beyond it the newest replaces the last queued value:
// a flood is coalesced to the latest progress, never buffered whole.
const MaxQueuedProgress = 256

// Progress maps the progress tokens of in-flight calls to their streams.
// Deliver never blocks: it runs in the SDK's read loop (observed
// connections) or its notification goroutine (Streamable HTTP).
type Progress struct {
	mu      sync.Mutex
	streams map[string]*Stream
}

// NewProgress returns an empty router.
func NewProgress() *Progress {
	return &Progress{streams: map[string]*Stream{}}
}

// Stream is one call's progress: queued in order and delivered to the
// caller's OnProgress by a goroutine that exists only while there is
// something to deliver. The host emits no agent:tool_progress event itself:
// engine.Trace turns the caller's progress into events, under the caller's
// call id, so there is exactly one event per notification.
type Stream struct {
	Owner any // the server the call went to: the only one whose progress it takes
	Queue[engine.Progress]
}

// NewStream is a stream of owner's progress delivered to deliver, coalesced
// to the latest past MaxQueuedProgress.
func NewStream(owner any, deliver func(engine.Progress)) *Stream {
	return &Stream{Owner: owner, Queue: Queue[engine.Progress]{Deliver: deliver, Max: MaxQueuedProgress, KeepNewest: true}}
}

// Add registers s under token.
func (r *Progress) Add(token string, s *Stream) {
	r.mu.Lock()
	r.streams[token] = s
	r.mu.Unlock()
}

// Remove unregisters a stream. Once it returns no push can reach the stream
// (Deliver pushes under the same lock).
func (r *Progress) Remove(token string) {
	r.mu.Lock()
	delete(r.streams, token)
	r.mu.Unlock()
}

// Tokens are the tokens registered now.
func (r *Progress) Tokens() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]string, 0, len(r.streams))
	for tok := range r.streams {
		out = append(out, tok)
	}
	return out
}

// Deliver routes one progress notification that from sent by its token; a
// token of no in-flight call of that same owner (late, forged, or another
// server's call: tokens are predictable) is dropped.
func (r *Progress) Deliver(from any, token any, p engine.Progress) {
	tok, ok := token.(string)
	if !ok {
		return
	}
	r.mu.Lock()
	if s := r.streams[tok]; s != nil && s.Owner == from {
		s.Push(p)
	}
	r.mu.Unlock()
}
