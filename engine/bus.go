package engine

import (
	"container/list"
	"context"
	"errors"
	"iter"
	"sync"
	"time"
)

// ErrBusClosed is returned by Subscription.Next once the subscription has
// delivered every event it will ever deliver.
var ErrBusClosed = errors.New("event bus closed")

// DefaultLogBacklog is how many undelivered agent:tool_log events one
// subscriber may hold before the oldest is dropped.
const DefaultLogBacklog = 1024

// BusOptions tune a Bus. The zero value is ready to use.
type BusOptions struct {
	// Now stamps Event.Time (time.Now when nil).
	Now func() time.Time
	// LogBacklog bounds undelivered log events per subscriber
	// (DefaultLogBacklog when <= 0).
	LogBacklog int
}

// Bus is the event stream: it stamps every event with a sequence number and
// a time, and fans it out to every subscriber. Emit never blocks on a
// subscriber: each subscriber has its own queue. A subscriber that falls
// behind gets agent:tool_progress coalesced (only the latest per call is
// kept) and, past LogBacklog, loses its oldest agent:tool_log events; every
// other event (results, gates, server states, run terminals) is always
// delivered, in order. Bus implements Emitter.
//
// Close ends the stream: later Emits are dropped, and each subscriber first
// drains what it already holds, then Next returns ErrBusClosed. A Bus owns
// no goroutine.
type Bus struct {
	now        func() time.Time
	logBacklog int

	mu      sync.Mutex
	seq     uint64
	closed  bool
	subs    map[*Subscription]struct{}
	dropped uint64 // emits after Close
}

// NewBus returns an open bus.
func NewBus(opts BusOptions) *Bus {
	b := &Bus{now: opts.Now, logBacklog: opts.LogBacklog, subs: map[*Subscription]struct{}{}}
	if b.now == nil {
		b.now = time.Now
	}
	if b.logBacklog <= 0 {
		b.logBacklog = DefaultLogBacklog
	}
	return b
}

// Emit stamps e with the next sequence number and the time, and queues it
// for every subscriber. It never blocks on a consumer.
func (b *Bus) Emit(e Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		b.dropped++
		return
	}
	b.seq++
	e.Seq = b.seq
	e.Time = b.now()
	for s := range b.subs {
		s.push(e)
	}
}

// Subscribe returns a subscription that receives every event emitted after
// this call. On a closed bus it returns a subscription that is already done.
func (b *Bus) Subscribe() *Subscription {
	s := &Subscription{bus: b, queue: list.New(), logs: list.New(),
		progress: map[progressKey]*list.Element{}, ready: make(chan struct{}, 1)}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		s.done = true
		return s
	}
	b.subs[s] = struct{}{}
	return s
}

// Close ends the stream (idempotent). Subscribers drain what they hold.
func (b *Bus) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	b.closed = true
	for s := range b.subs {
		s.wake()
	}
}

// Seq returns the sequence number of the last emitted event.
func (b *Bus) Seq() uint64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.seq
}

type progressKey struct{ run, call string }

// Subscription is one consumer's view of a Bus. Its methods are safe for
// concurrent use, but events are meant to be read by one goroutine.
type Subscription struct {
	bus   *Bus
	ready chan struct{} // signalled (non-blocking) when something changed

	// guarded by bus.mu
	queue    *list.List // of Event, in sequence order
	logs     *list.List // of *list.Element into queue: undelivered logs, oldest first
	progress map[progressKey]*list.Element
	done     bool // unsubscribed: nothing more, pending discarded
	dropped  uint64
	merged   uint64
}

// push queues e; caller holds bus.mu.
func (s *Subscription) push(e Event) {
	switch e.Type {
	case EventToolProgress:
		if k, ok := progressKeyOf(e); ok {
			if old, ok := s.progress[k]; ok {
				s.queue.Remove(old)
				s.merged++
			}
			s.progress[k] = s.queue.PushBack(e)
			s.wake()
			return
		}
	case EventToolLog:
		el := s.queue.PushBack(e)
		s.logs.PushBack(el)
		if s.logs.Len() > s.bus.logBacklog {
			oldest := s.logs.Remove(s.logs.Front()).(*list.Element)
			s.queue.Remove(oldest)
			s.dropped++
		}
		s.wake()
		return
	}
	s.queue.PushBack(e)
	s.wake()
}

func (s *Subscription) wake() {
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func progressKeyOf(e Event) (progressKey, bool) {
	switch d := e.Data.(type) {
	case ToolProgressData:
		return progressKey{e.RunID, d.CallID}, d.CallID != ""
	case *ToolProgressData:
		if d != nil {
			return progressKey{e.RunID, d.CallID}, d.CallID != ""
		}
	}
	return progressKey{}, false
}

// pop takes the next event; caller holds bus.mu.
func (s *Subscription) pop() (Event, bool) {
	front := s.queue.Front()
	if front == nil {
		return Event{}, false
	}
	e := s.queue.Remove(front).(Event)
	switch e.Type {
	case EventToolProgress:
		if k, ok := progressKeyOf(e); ok && s.progress[k] == front {
			delete(s.progress, k)
		}
	case EventToolLog:
		if f := s.logs.Front(); f != nil && f.Value.(*list.Element) == front {
			s.logs.Remove(f)
		}
	}
	return e, true
}

// TryNext returns the next queued event without waiting.
func (s *Subscription) TryNext() (Event, bool) {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	if s.done {
		return Event{}, false
	}
	return s.pop()
}

// Next waits for the next event. It returns ErrBusClosed when the bus was
// closed and this subscription has delivered everything, or when the
// subscription itself was closed; ctx's error when ctx ends first.
func (s *Subscription) Next(ctx context.Context) (Event, error) {
	for {
		s.bus.mu.Lock()
		if s.done {
			s.bus.mu.Unlock()
			return Event{}, ErrBusClosed
		}
		if e, ok := s.pop(); ok {
			s.bus.mu.Unlock()
			return e, nil
		}
		if s.bus.closed {
			s.done = true
			delete(s.bus.subs, s)
			s.bus.mu.Unlock()
			return Event{}, ErrBusClosed
		}
		s.bus.mu.Unlock()
		select {
		case <-s.ready:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

// Events iterates over the subscription until the bus is closed and drained,
// the subscription is closed, or ctx ends.
func (s *Subscription) Events(ctx context.Context) iter.Seq[Event] {
	return func(yield func(Event) bool) {
		for {
			e, err := s.Next(ctx)
			if err != nil || !yield(e) {
				return
			}
		}
	}
}

// Close unsubscribes (idempotent): pending events are discarded and Next
// returns ErrBusClosed.
func (s *Subscription) Close() {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	s.done = true
	delete(s.bus.subs, s)
	s.queue.Init()
	s.logs.Init()
	clear(s.progress)
	s.wake()
}

// Pending returns how many events are queued and not yet read.
func (s *Subscription) Pending() int {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	return s.queue.Len()
}

// Stats reports what this subscriber did not see one by one: progress
// events replaced by a later one for the same call (coalesced) and log
// events dropped past the backlog.
func (s *Subscription) Stats() (coalesced, droppedLogs uint64) {
	s.bus.mu.Lock()
	defer s.bus.mu.Unlock()
	return s.merged, s.dropped
}
