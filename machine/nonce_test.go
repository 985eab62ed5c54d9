package machine

import (
	"crypto/sha256"
	"fmt"
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

// spendOK spends n and reports whether it was accepted.
func spendOK(s *NonceStore, n, owner string, d [32]byte) bool {
	_, ok := s.Spend(n, owner, d)
	return ok
}

func TestNonceSingleUseAndReplay(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("request"))
	n, err := s.Issue("s1", d, "")
	if err != nil || !isConfirmValue(n) {
		t.Fatalf("nonce %q %v", n, err)
	}
	if !spendOK(s, n, "s1", d) {
		t.Fatal("a live nonce for the identical request was refused")
	}
	if spendOK(s, n, "s1", d) {
		t.Fatal("a spent nonce was accepted again (replay)")
	}
}

func TestNonceSpentOnAnyAttempt(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("request"))
	other := sha256.Sum256([]byte("another request"))
	n, _ := s.Issue("s1", d, "")
	if spendOK(s, n, "s1", other) {
		t.Fatal("a nonce was accepted for a different request")
	}
	if spendOK(s, n, "s1", d) {
		t.Fatal("a nonce survived a failed attempt")
	}
	if spendOK(s, string(make([]byte, 64)), "s1", d) || s.Live() != 0 {
		t.Fatal("unknown nonce accepted or store not empty")
	}
}

// A nonce is bound to the session that received it: another session
// presenting it is refused (and spends it).
func TestNonceBoundToItsSession(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("request"))
	n, _ := s.Issue("session-a", d, "")
	if spendOK(s, n, "session-b", d) {
		t.Fatal("a nonce issued to one session was accepted from another")
	}
	if spendOK(s, n, "session-a", d) {
		t.Fatal("a nonce survived another session's attempt")
	}
}

func TestNonceCarriesItsPlan(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("request"))
	n, _ := s.Issue("s1", d, "plan-1")
	g, ok := s.Spend(n, "s1", d)
	if !ok || g.PlanID != "plan-1" {
		t.Fatalf("grant %+v %v", g, ok)
	}
}

func TestNonceExpiry(t *testing.T) {
	clk := &nonceClock{t: time.Unix(1_700_000_000, 0)}
	s := NewNonceStore(clk.now)
	d := sha256.Sum256([]byte("r"))
	fresh, _ := s.Issue("s1", d, "")
	old, _ := s.Issue("s1", d, "")
	clk.advance(NonceTTL - time.Second)
	if !spendOK(s, fresh, "s1", d) {
		t.Fatal("a nonce one second before expiry was refused")
	}
	clk.advance(time.Second)
	if spendOK(s, old, "s1", d) {
		t.Fatal("a nonce at its expiry was accepted")
	}
	n, _ := s.Issue("s1", d, "")
	clk.advance(NonceTTL + time.Hour)
	if s.Live() != 0 || spendOK(s, n, "s1", d) {
		t.Fatal("expired nonces are still live")
	}
}

// Reinstate puts a nonce back with its own expiry; an expired one stays gone.
func TestNonceReinstate(t *testing.T) {
	clk := &nonceClock{t: time.Unix(1_700_000_000, 0)}
	s := NewNonceStore(clk.now)
	d := sha256.Sum256([]byte("r"))
	n, _ := s.Issue("s1", d, "p")
	clk.advance(time.Minute)
	later, _ := s.Issue("s1", d, "")
	g, ok := s.Spend(n, "s1", d)
	if !ok {
		t.Fatal("spend")
	}
	s.Reinstate(n, g)
	s.Reinstate(n, g) // twice is once
	if s.Live() != 2 {
		t.Fatalf("%d live", s.Live())
	}
	clk.advance(NonceTTL - time.Minute) // n expires, later does not
	if spendOK(s, n, "s1", d) || !spendOK(s, later, "s1", d) {
		t.Fatal("a reinstated nonce must keep its first expiry, and the order must stay by expiry")
	}
	m, _ := s.Issue("s1", d, "")
	g, _ = s.Spend(m, "s1", d)
	clk.advance(NonceTTL)
	s.Reinstate(m, g)
	if s.Live() != 0 {
		t.Fatal("an expired grant was reinstated")
	}
}

func TestNonceEvictionIsFIFO(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("r"))
	var issued []string
	var owners []string
	for i := 0; i < MaxLiveNonces+5; i++ {
		owner := fmt.Sprintf("s%d", i%MaxSessions) // MaxSessions sessions, each within its own bound
		n, err := s.Issue(owner, d, "")
		if err != nil {
			t.Fatal(err)
		}
		issued, owners = append(issued, n), append(owners, owner)
	}
	if s.Live() != MaxLiveNonces {
		t.Fatalf("%d live, want %d", s.Live(), MaxLiveNonces)
	}
	for i, n := range issued[:5] {
		if spendOK(s, n, owners[i], d) {
			t.Fatal("an evicted (oldest) nonce was accepted")
		}
	}
	last := len(issued) - 1
	if !spendOK(s, issued[5], owners[5], d) || !spendOK(s, issued[last], owners[last], d) {
		t.Fatal("a nonce that should be live was refused")
	}
	if s.Live() != MaxLiveNonces-2 {
		t.Fatalf("%d live after spending two", s.Live())
	}
}

// One session asking for many confirmations pushes out only its own oldest:
// another session's confirmation stays live.
func TestNonceSessionBoundKeepsOthers(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("r"))
	theirs, _ := s.Issue("person", d, "")
	var mine []string
	for i := 0; i < 10*MaxLiveNonces; i++ {
		n, _ := s.Issue("flooder", d, "")
		mine = append(mine, n)
	}
	if s.Live() != MaxNoncesPerSession+1 {
		t.Fatalf("%d live, want the flooder's %d plus one", s.Live(), MaxNoncesPerSession)
	}
	if spendOK(s, mine[0], "flooder", d) || !spendOK(s, mine[len(mine)-1], "flooder", d) {
		t.Fatal("the flooder's oldest must be pushed out, its newest kept")
	}
	if !spendOK(s, theirs, "person", d) {
		t.Fatal("another session's confirmation was pushed out")
	}
}

func TestNonceForget(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("r"))
	a, _ := s.Issue("a", d, "")
	_, _ = s.Issue("b", d, "")
	_, _ = s.Issue("a", d, "")
	s.Forget("a")
	if s.Live() != 1 || spendOK(s, a, "a", d) {
		t.Fatalf("%d live after forgetting a", s.Live())
	}
}

func TestNonceConcurrentSpendOnce(t *testing.T) {
	s := NewNonceStore(nil)
	d := sha256.Sum256([]byte("r"))
	n, _ := s.Issue("s1", d, "")
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := 0
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if spendOK(s, n, "s1", d) {
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
