package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"sync"
)

// errFakeDial is what the recording dialer answers: it never opens a socket.
var errFakeDial = errors.New("fake dialer: no socket opened")

// recordingDialer records every address the guard asks it to dial.
type recordingDialer struct {
	mu    sync.Mutex
	dials []string
}

func (d *recordingDialer) DialContext(_ context.Context, network, address string) (net.Conn, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if network != "tcp" {
		return nil, fmt.Errorf("fake dialer: unexpected network %q", network)
	}
	d.dials = append(d.dials, address)
	return nil, errFakeDial
}

func (d *recordingDialer) recorded() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.dials...)
}

// fakeResolver answers from a table; a name missing from it is NXDOMAIN. It
// counts lookups per name.
type fakeResolver struct {
	mu      sync.Mutex
	answers map[string][]string // nil slice with present key: an error
	fail    map[string]string
	calls   map[string]int
}

func newFakeResolver() *fakeResolver {
	return &fakeResolver{answers: map[string][]string{}, fail: map[string]string{}, calls: map[string]int{}}
}

func (r *fakeResolver) set(host string, addrs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.answers[host] = addrs
}

func (r *fakeResolver) LookupNetIP(_ context.Context, network, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if network != "ip" {
		return nil, fmt.Errorf("fake resolver: unexpected network %q", network)
	}
	host = strings.ToLower(host)
	r.calls[host]++
	if msg, ok := r.fail[host]; ok {
		return nil, &net.DNSError{Err: msg, Name: host, IsTemporary: true}
	}
	raw, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	out := make([]netip.Addr, 0, len(raw))
	for _, s := range raw {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

func (r *fakeResolver) count(host string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[host]
}
