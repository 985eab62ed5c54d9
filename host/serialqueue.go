package host

import "sync"

// serialQueue delivers values, in the order pushed, to deliver on a
// goroutine that exists only while there is something to deliver: push
// never blocks the reader of a connection, and a slow consumer holds at most
// max values. A call's progress and a call's logs go through one each; they
// differ only in what a full queue gives up (keepNewest: the last queued
// value is replaced, so a flood coalesces to the latest; else the oldest is
// dropped).
type serialQueue[T any] struct {
	deliver    func(T)
	max        int
	keepNewest bool

	mu      sync.Mutex
	queue   []T
	running bool
	wg      sync.WaitGroup
}

func (q *serialQueue[T]) push(v T) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case len(q.queue) < q.max:
		q.queue = append(q.queue, v)
	case q.keepNewest:
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

func (q *serialQueue[T]) run() {
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
			q.deliver(v)
		}
	}
}

// drain waits until everything pushed so far was delivered.
func (q *serialQueue[T]) drain() { q.wg.Wait() }
