package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

func progressEv(run, call string, n float64) Event {
	return Event{Type: EventToolProgress, RunID: run, Data: ToolProgressData{CallID: call, Progress: Progress{Progress: n, Total: 100}}}
}

func drain(t *testing.T, s *Subscription) []Event {
	t.Helper()
	var out []Event
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		e, err := s.Next(ctx)
		if errors.Is(err, ErrBusClosed) {
			return out
		}
		if err != nil {
			t.Fatalf("drain: %v", err)
		}
		out = append(out, e)
	}
}

func TestBusStampsAndFansOutInOneOrder(t *testing.T) {
	clock := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	b := NewBus(BusOptions{Now: func() time.Time { clock = clock.Add(time.Millisecond); return clock }})
	subs := []*Subscription{b.Subscribe(), b.Subscribe(), b.Subscribe()}

	// many producers at once
	var wg sync.WaitGroup
	for p := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 250 {
				b.Emit(Event{Type: EventToolResult, Data: ToolResultData{CallID: fmt.Sprintf("%d-%d", p, i)}})
			}
		}()
	}
	wg.Wait()
	b.Close()
	var first []Event
	for i, s := range subs {
		got := drain(t, s)
		if len(got) != 1000 {
			t.Fatalf("subscriber %d got %d events", i, len(got))
		}
		for j, e := range got {
			if e.Seq != uint64(j+1) {
				t.Fatalf("subscriber %d: event %d has seq %d", i, j, e.Seq)
			}
			if e.Time.IsZero() || (j > 0 && !e.Time.After(got[j-1].Time)) {
				t.Fatalf("subscriber %d: time not stamped in order at %d", i, j)
			}
		}
		if i == 0 {
			first = got
			continue
		}
		for j := range got {
			if got[j].Data != first[j].Data {
				t.Fatalf("subscribers disagree at %d", j)
			}
		}
	}
}

// A subscriber that never reads must not slow the producer, and when it
// finally reads it sees every result, gate, server state and terminal event,
// in order, with progress coalesced to the latest value per call.
func TestBusSlowSubscriberCoalescesProgressButLosesNothingElse(t *testing.T) {
	b := NewBus(BusOptions{LogBacklog: 16})
	slow := b.Subscribe()
	fast := b.Subscribe()

	var fastGot []Event
	fastDone := make(chan struct{})
	go func() {
		defer close(fastDone)
		for e := range fast.Events(context.Background()) {
			fastGot = append(fastGot, e)
		}
	}()

	b.Emit(Event{Type: EventRunStarted, RunID: "r"})
	b.Emit(Event{Type: EventServer, Data: ServerData{Server: "s", State: StateReady}})
	for call := range 3 {
		id := fmt.Sprintf("c%d", call)
		b.Emit(Event{Type: EventToolCall, RunID: "r", Data: ToolCallData{CallID: id}})
		for i := range 5000 {
			b.Emit(progressEv("r", id, float64(i)))
			if i%100 == 0 {
				b.Emit(Event{Type: EventToolLog, RunID: "r", Data: ToolLogData{CallID: id}})
			}
		}
		b.Emit(Event{Type: EventToolResult, RunID: "r", Data: ToolResultData{CallID: id}})
	}
	b.Emit(Event{Type: EventGateRequested, RunID: "r", Data: GateRequestedData{Step: "g"}})
	b.Emit(Event{Type: EventGateResolved, RunID: "r", Data: GateResolvedData{Step: "g", Approved: true}})
	b.Emit(Event{Type: EventServer, Data: ServerData{Server: "s", State: StateFailed}})
	b.Emit(Event{Type: EventRunCompleted, RunID: "r"})
	b.Close()
	<-fastDone

	got := drain(t, slow)
	var kinds []string
	lastProgress := map[string]float64{}
	progressCount := map[string]int{}
	logs := 0
	var prevSeq uint64
	for _, e := range got {
		if e.Seq <= prevSeq {
			t.Fatalf("sequence went backwards: %d after %d", e.Seq, prevSeq)
		}
		prevSeq = e.Seq
		switch e.Type {
		case EventToolProgress:
			d := e.Data.(ToolProgressData)
			progressCount[d.CallID]++
			lastProgress[d.CallID] = d.Progress.Progress
			continue
		case EventToolLog:
			logs++
			continue
		}
		kinds = append(kinds, e.Type)
	}
	want := []string{EventRunStarted, EventServer,
		EventToolCall, EventToolResult, EventToolCall, EventToolResult, EventToolCall, EventToolResult,
		EventGateRequested, EventGateResolved, EventServer, EventRunCompleted}
	if fmt.Sprint(kinds) != fmt.Sprint(want) {
		t.Fatalf("lossless events:\n got %v\nwant %v", kinds, want)
	}
	for call := range 3 {
		id := fmt.Sprintf("c%d", call)
		if progressCount[id] != 1 || lastProgress[id] != 4999 {
			t.Fatalf("call %s: %d progress events, last %v; want exactly the latest (4999)", id, progressCount[id], lastProgress[id])
		}
	}
	if logs != 16 {
		t.Fatalf("log backlog: got %d logs, want the newest 16", logs)
	}
	coalesced, dropped := slow.Stats()
	if coalesced != 3*4999 || dropped != 150-16 {
		t.Fatalf("stats coalesced=%d dropped=%d", coalesced, dropped)
	}
	// The fast reader (which kept up or not — it ran concurrently) also
	// ends with the terminal event and never misses a lossless one.
	if n := len(fastGot); n == 0 || fastGot[n-1].Type != EventRunCompleted {
		t.Fatalf("fast subscriber did not end with the terminal event")
	}
}

func TestBusEmitNeverBlocksOnAConsumerThatNeverReads(t *testing.T) {
	b := NewBus(BusOptions{})
	stuck := b.Subscribe()
	defer stuck.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 200_000 {
			b.Emit(progressEv("r", "c", float64(i)))
		}
		b.Emit(Event{Type: EventRunCompleted, RunID: "r"})
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Emit blocked on a subscriber that never reads")
	}
	if p := stuck.Pending(); p != 2 {
		t.Fatalf("stuck subscriber holds %d events; want 2 (latest progress + terminal)", p)
	}
	b.Close()
}

func TestBusCloseSemantics(t *testing.T) {
	b := NewBus(BusOptions{})
	s := b.Subscribe()
	b.Emit(Event{Type: EventRunStarted})
	b.Emit(Event{Type: EventRunCompleted})
	b.Close()
	b.Close()                           // idempotent
	b.Emit(Event{Type: EventRunFailed}) // dropped
	got := drain(t, s)
	if len(got) != 2 || got[1].Type != EventRunCompleted {
		t.Fatalf("after Close the subscriber drains what it held: %+v", got)
	}
	if _, err := s.Next(context.Background()); !errors.Is(err, ErrBusClosed) {
		t.Fatalf("Next after drain: %v", err)
	}
	late := b.Subscribe()
	if _, err := late.Next(context.Background()); !errors.Is(err, ErrBusClosed) {
		t.Fatalf("Subscribe after Close: %v", err)
	}
	if b.Seq() != 2 {
		t.Fatalf("seq after close = %d", b.Seq())
	}
}

func TestSubscriptionCloseDiscardsAndUnblocks(t *testing.T) {
	b := NewBus(BusOptions{})
	defer b.Close()
	s := b.Subscribe()
	b.Emit(Event{Type: EventRunStarted})
	s.Close()
	if _, err := s.Next(context.Background()); !errors.Is(err, ErrBusClosed) {
		t.Fatalf("Next after Subscription.Close: %v", err)
	}
	// A reader blocked in Next is released by Close.
	s2 := b.Subscribe()
	errc := make(chan error, 1)
	go func() { _, err := s2.Next(context.Background()); errc <- err }()
	time.Sleep(10 * time.Millisecond)
	s2.Close()
	if err := <-errc; !errors.Is(err, ErrBusClosed) {
		t.Fatalf("blocked Next after Close: %v", err)
	}
	// Emits after unsubscribe do not reach it.
	b.Emit(Event{Type: EventRunCompleted})
	if s2.Pending() != 0 {
		t.Fatal("a closed subscription still receives events")
	}
}

func TestSubscriptionNextHonoursContext(t *testing.T) {
	b := NewBus(BusOptions{})
	defer b.Close()
	s := b.Subscribe()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.Next(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Next with an expiring ctx: %v", err)
	}
	b.Emit(Event{Type: EventRunStarted})
	if e, ok := s.TryNext(); !ok || e.Type != EventRunStarted {
		t.Fatalf("TryNext = %+v %v", e, ok)
	}
	if _, ok := s.TryNext(); ok {
		t.Fatal("TryNext on an empty queue returned an event")
	}
}

func TestBusIsAnEmitter(t *testing.T) {
	var _ Emitter = NewBus(BusOptions{})
}
