package invoke

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"sync"
	"time"
)

// Nonce store bounds (spec: "Confirmation round trip").
const (
	NonceTTL      = 10 * time.Minute
	MaxLiveNonces = 1024
)

// NonceStore holds the server's live confirmation nonces in memory: 32 random
// bytes each, bound to the digest of the full, unredacted request, valid for
// NonceTTL and good for one attempt. At most MaxLiveNonces live; the oldest
// is pushed out first. Nonces die with the process.
type NonceStore struct {
	mu    sync.Mutex
	now   func() time.Time
	order []string // issue order, oldest first
	live  map[string]nonceEntry
}

type nonceEntry struct {
	digest  [32]byte
	expires time.Time
}

// NewNonceStore returns an empty store; now is the clock (nil = time.Now).
func NewNonceStore(now func() time.Time) *NonceStore {
	if now == nil {
		now = time.Now
	}
	return &NonceStore{now: now, live: map[string]nonceEntry{}}
}

// Issue returns a fresh nonce bound to digest.
func (s *NonceStore) Issue(digest [32]byte) (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	n := hex.EncodeToString(b[:])
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	for len(s.order) >= MaxLiveNonces {
		delete(s.live, s.order[0])
		s.order = s.order[1:]
	}
	s.live[n] = nonceEntry{digest: digest, expires: s.now().Add(NonceTTL)}
	s.order = append(s.order, n)
	return n, nil
}

// Spend checks nonce against digest and removes it whatever the outcome: a
// reused, expired, unknown or mismatched nonce is false, and it is spent
// either way.
func (s *NonceStore) Spend(nonce string, digest [32]byte) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.live[nonce]
	if ok {
		delete(s.live, nonce)
		for i, n := range s.order {
			if n == nonce {
				s.order = append(s.order[:i:i], s.order[i+1:]...)
				break
			}
		}
	}
	s.sweepLocked()
	if !ok || !s.now().Before(e.expires) {
		return false
	}
	return subtle.ConstantTimeCompare(e.digest[:], digest[:]) == 1
}

// Live returns the number of live (unexpired) nonces.
func (s *NonceStore) Live() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweepLocked()
	return len(s.order)
}

// sweepLocked drops expired nonces from the front (issue order is expiry
// order: every nonce gets the same TTL).
func (s *NonceStore) sweepLocked() {
	now := s.now()
	i := 0
	for i < len(s.order) && !now.Before(s.live[s.order[i]].expires) {
		delete(s.live, s.order[i])
		i++
	}
	s.order = s.order[i:]
}
