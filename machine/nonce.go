package machine

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"sync"
	"time"
)

// Nonce store bounds. Every confirmation `mcp serve` hands out (kind request
// and kind plan alike) is one of these nonces.
const (
	NonceTTL      = 10 * time.Minute
	MaxLiveNonces = 1024
	// MaxNoncesPerSession bounds one session's live confirmations: a session
	// that asks for more pushes out its own oldest, never another session's.
	// MaxSessions sessions at this bound fill MaxLiveNonces exactly.
	MaxNoncesPerSession = MaxLiveNonces / MaxSessions
)

// Grant is what a spent nonce confirmed: the plan it was bound to (kind
// plan; empty for kind request) and when it would have expired.
type Grant struct {
	PlanID  string
	owner   string
	digest  [32]byte
	expires time.Time
}

// NonceStore holds the server's live confirmation nonces in memory: 32 random
// bytes each, bound to the session that received it (owner: the MCP session
// and, on sse/http, its bearer identity) and to the digest of the exact
// request through the exact tool, valid for NonceTTL and good for one
// attempt. At most MaxNoncesPerSession per owner and MaxLiveNonces in all
// (the oldest is pushed out first); expired ones are swept on every use.
// Nonces die with the process.
type NonceStore struct {
	mu      sync.Mutex
	now     func() time.Time
	order   []string // issue order, oldest first (= expiry order)
	live    map[string]Grant
	byOwner map[string]int
}

// NewNonceStore returns an empty store; now is the clock (nil = time.Now).
func NewNonceStore(now func() time.Time) *NonceStore {
	if now == nil {
		now = time.Now
	}
	return &NonceStore{now: now, live: map[string]Grant{}, byOwner: map[string]int{}}
}

// Issue returns a fresh nonce bound to owner, digest and planID.
func (s *NonceStore) Issue(owner string, digest [32]byte, planID string) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	n := hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	if s.byOwner[owner] >= MaxNoncesPerSession {
		for _, old := range s.order {
			if s.live[old].owner == owner {
				s.dropLocked(old)
				break
			}
		}
	}
	for len(s.order) >= MaxLiveNonces {
		s.dropLocked(s.order[0])
	}
	s.live[n] = Grant{PlanID: planID, owner: owner, digest: digest, expires: s.now().Add(NonceTTL)}
	s.byOwner[owner]++
	s.order = append(s.order, n)
	return n, nil
}

// Spend checks nonce against owner and digest and removes it whatever the
// outcome: a reused, expired, unknown or mismatched nonce (another session,
// another tool, another request) is false, and it is spent either way.
func (s *NonceStore) Spend(nonce, owner string, digest [32]byte) (Grant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g, ok := s.live[nonce]
	if ok {
		s.dropLocked(nonce)
	}
	s.sweepLocked()
	if !ok || !s.now().Before(g.expires) {
		return Grant{}, false
	}
	same := subtle.ConstantTimeCompare(g.digest[:], digest[:]) & subtle.ConstantTimeCompare([]byte(g.owner), []byte(owner))
	if same != 1 {
		return Grant{}, false
	}
	return g, true
}

// Reinstate puts back a nonce that was spent on a call which ran nothing
// (its gates are still being put to the client, who resends the same call
// with the answers): same binding, same expiry. An expired grant stays gone.
func (s *NonceStore) Reinstate(nonce string, g Grant) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	if _, ok := s.live[nonce]; ok || !s.now().Before(g.expires) {
		return
	}
	for len(s.order) >= MaxLiveNonces {
		s.dropLocked(s.order[0])
	}
	// Keep the order sorted by expiry: insert before the first later one.
	i := len(s.order)
	for i > 0 && s.live[s.order[i-1]].expires.After(g.expires) {
		i--
	}
	s.order = append(s.order, "")
	copy(s.order[i+1:], s.order[i:])
	s.order[i] = nonce
	s.live[nonce] = g
	s.byOwner[g.owner]++
}

// Forget drops every nonce of owner (its session closed: none of them can
// be presented any more).
func (s *NonceStore) Forget(owner string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byOwner[owner] == 0 {
		return
	}
	kept := s.order[:0]
	for _, n := range s.order {
		if s.live[n].owner == owner {
			delete(s.live, n)
			continue
		}
		kept = append(kept, n)
	}
	clear(s.order[len(kept):])
	s.order = kept
	delete(s.byOwner, owner)
}

// Live returns the number of live (unexpired) nonces.
func (s *NonceStore) Live() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	return len(s.order)
}

// dropLocked removes one live nonce.
func (s *NonceStore) dropLocked(nonce string) {
	g, ok := s.live[nonce]
	if !ok {
		return
	}
	delete(s.live, nonce)
	if s.byOwner[g.owner]--; s.byOwner[g.owner] <= 0 {
		delete(s.byOwner, g.owner)
	}
	for i, n := range s.order {
		if n == nonce {
			s.order = append(s.order[:i:i], s.order[i+1:]...)
			break
		}
	}
}

// sweepLocked drops expired nonces from the front (issue order is expiry
// order: every nonce gets the same TTL, and Reinstate keeps the order).
func (s *NonceStore) sweepLocked() {
	now := s.now()
	for len(s.order) > 0 && !now.Before(s.live[s.order[0]].expires) {
		s.dropLocked(s.order[0])
	}
}
