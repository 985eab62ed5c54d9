package demoserver

import (
	"context"
	"sync"
)

// inflight counts work in progress (stdio calls not yet answered, HTTP POSTs
// being answered) so that shutdown can let it finish before it closes
// sessions: a call cut off by shutdown gets its "shutting down" error
// result instead of a dropped stream.
type inflight struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil while n == 0
}

func (f *inflight) begin() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == 0 {
		f.idle = make(chan struct{})
	}
	f.n++
}

func (f *inflight) end() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	if f.n == 0 {
		close(f.idle)
		f.idle = nil
	}
}

// wait returns when nothing is in progress, or when ctx ends.
func (f *inflight) wait(ctx context.Context) {
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	if idle == nil {
		return
	}
	select {
	case <-idle:
	case <-ctx.Done():
	}
}
