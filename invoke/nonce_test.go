package invoke

import (
	"crypto/sha256"
	"sync"
	"testing"
	"time"
)

// nonceClock is an injectable clock.
type nonceClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *nonceClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *nonceClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestNonceSingleUseAndReplay(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("request"))
	n, err := s.Issue(d)
	if err != nil || !isConfirmValue(n) {
		t.Fatalf("nonce %q %v", n, err)
	}
	if !s.Spend(n, d) {
		t.Fatal("a live nonce for the identical request was refused")
	}
	if s.Spend(n, d) {
		t.Fatal("a spent nonce was accepted again (replay)")
	}
}

func TestNonceSpentOnAnyAttempt(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("request"))
	other := sha256.Sum256([]byte("another request"))
	n, _ := s.Issue(d)
	if s.Spend(n, other) {
		t.Fatal("a nonce was accepted for a different request")
	}
	if s.Spend(n, d) {
		t.Fatal("a nonce survived a failed attempt")
	}
	if s.Spend(string(make([]byte, 64)), d) || s.Live() != 0 {
		t.Fatal("unknown nonce accepted or store not empty")
	}
}

func TestNonceExpiry(t *testing.T) {
	clk := &nonceClock{t: time.Unix(1_700_000_000, 0)}
	s := NewNonceStore(clk.now)
	d := sha256.Sum256([]byte("r"))
	fresh, _ := s.Issue(d)
	old, _ := s.Issue(d)
	clk.advance(NonceTTL - time.Second)
	if !s.Spend(fresh, d) {
		t.Fatal("a nonce one second before expiry was refused")
	}
	clk.advance(time.Second)
	if s.Spend(old, d) {
		t.Fatal("a nonce at its expiry was accepted")
	}
	n, _ := s.Issue(d)
	clk.advance(NonceTTL + time.Hour)
	if s.Live() != 0 || s.Spend(n, d) {
		t.Fatal("expired nonces are still live")
	}
}

func TestNonceEvictionIsFIFO(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("r"))
	var issued []string
	for i := 0; i < MaxLiveNonces+5; i++ {
		n, err := s.Issue(d)
		if err != nil {
			t.Fatal(err)
		}
		issued = append(issued, n)
	}
	if s.Live() != MaxLiveNonces {
		t.Fatalf("%d live, want %d", s.Live(), MaxLiveNonces)
	}
	for _, n := range issued[:5] {
		if s.Spend(n, d) {
			t.Fatal("an evicted (oldest) nonce was accepted")
		}
	}
	if !s.Spend(issued[5], d) || !s.Spend(issued[len(issued)-1], d) {
		t.Fatal("a nonce that should be live was refused")
	}
	if s.Live() != MaxLiveNonces-2 {
		t.Fatalf("%d live after spending two", s.Live())
	}
}

func TestNonceConcurrentSpendOnce(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("r"))
	n, _ := s.Issue(d)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if s.Spend(n, d) {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d spends succeeded", wins)
	}
}
