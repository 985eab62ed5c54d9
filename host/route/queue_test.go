package route

import (
	"runtime"
	"slices"
	"testing"
)

// A full queue gives up what its policy says — the oldest entry (logs) or
// the last queued one, replaced by the newest (progress) — and delivers
// the rest in order, on one goroutine at a time, all of it by Drain.
func TestSerialQueueOverflow(t *testing.T) {
	for _, c := range []struct {
		keepNewest bool
		want       []int
	}{
		{false, []int{0, 3, 4}}, // 0 is taken before the queue fills; 1 and 2 are dropped as the oldest
		{true, []int{0, 1, 4}},  // 2 and 3 are replaced by the newest
	} {
		gate, got := make(chan struct{}), []int{}
		q := &Queue[int]{Max: 2, KeepNewest: c.keepNewest, Deliver: func(v int) {
			if v == 0 {
				<-gate // hold the consumer until 1..4 are queued
			}
			got = append(got, v)
		}}
		q.Push(0)
		for !func() bool { q.mu.Lock(); defer q.mu.Unlock(); return len(q.queue) == 0 }() {
			runtime.Gosched() // until the consumer has taken 0 and waits at the gate
		}
		for v := 1; v <= 4; v++ {
			q.Push(v)
		}
		close(gate)
		q.Drain()
		if !slices.Equal(got, c.want) {
			t.Errorf("keepNewest=%v: delivered %v, want %v", c.keepNewest, got, c.want)
		}
	}
}
