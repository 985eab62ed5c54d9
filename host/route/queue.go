package route

import "sync"

// Queue delivers values, in the order pushed, to Deliver on a goroutine
// that exists only while there is something to deliver: Push never blocks
// the reader of a connection, and a slow consumer holds at most Max
// values. A call's progress and a call's logs go through one each; they
// differ only in what a full queue gives up (KeepNewest: the last queued
// value is replaced, so a flood coalesces to the latest; else the oldest is
// dropped).
type Queue[T any] struct {
	Deliver    func(T)
	Max        int
	KeepNewest bool

	mu      sync.Mutex
	queue   []T
	running bool
	wg      sync.WaitGroup
}

// Push queues v for delivery.
func (q *Queue[T]) Push(v T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case len(q.queue) < q.Max:
		q.queue = append(q.queue, v)
	case q.KeepNewest:
		q.queue[len(q.queue)-1] = v
	default:
		q.queue = append(q.queue[1:], v)
	}
	if !q.running {
		q.running = true
		q.wg.Add(1)
		go q.run()
	}
}

func (q *Queue[T]) run() {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		batch := q.queue
		q.queue = nil
		if len(batch) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		q.mu.Unlock()
		for _, v := range batch {
			q.Deliver(v)
		}
	}
}

// Drain waits until everything pushed so far was delivered.
func (q *Queue[T]) Drain() { q.wg.Wait() }
