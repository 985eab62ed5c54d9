package consent

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/relavium/relavium/fault"
)

// State is a decision's outcome for one stdio server.
type State string

// Decision states.
const (
	Approved     State = "approved"      // may be spawned
	NeedsConsent State = "needs-consent" // ask the person, or refuse headless
	Denied       State = "denied"        // the person said no this session
)

// Why says what approved a server.
type Why string

// Approval reasons.
const (
	ByGrant     Why = "grant"         // a live grant in the store
	ByAllowFlag Why = "allow-flag"    // --allow-mcp-stdio named its digest
	BySession   Why = "approved-once" // approved once, this session only
)

// Decision is the verdict on one resolved stdio server.
type Decision struct {
	Server *Resolved `json:"server"`
	State  State     `json:"state"`
	Why    Why       `json:"why,omitempty"`   // when Approved
	Grant  *Grant    `json:"grant,omitempty"` // the live grant, when Why is ByGrant
	// Diff is set when NeedsConsent: the field diff against the closest
	// earlier grant (Diff.Previous nil: nothing comparable was granted).
	Diff *Diff `json:"diff,omitempty"`
	// StoreErr is why the store's grants could not be trusted (a fold that
	// failed closed, a refused file); nil when it read cleanly. It is set on
	// every decision, approved ones included (a server approved by
	// --allow-mcp-stdio still runs beside a broken store), and every surface
	// shows it: a person re-approving everything is owed the reason.
	StoreErr error `json:"-"`
}

// Approved reports whether the server may be spawned.
func (d Decision) Approved() bool { return d.State == Approved }

// Decider decides, per resolved stdio server, whether it may be spawned, and
// holds the session's own answers (approve once, deny). It is safe for
// concurrent use (the TUI answers from its own goroutine).
type Decider struct {
	store *Store
	allow []string
	now   func() time.Time

	// allowSecret are the --allow-secret NAME@ORIGIN values, as given.
	allowSecret []string
	// allowLocal are the --allow-local NAME values (local.go).
	allowLocal []string

	mu     sync.Mutex
	once   map[string]bool
	denied map[string]bool
	typed  map[string]bool // binding digests bound by typing this session
}

// NewDecider builds a decider over the grant store and the digests passed
// with --allow-mcp-stdio. now is the clock for grant times (nil: time.Now).
func NewDecider(store *Store, allow []string, now func() time.Time) *Decider {
	if now == nil {
		now = time.Now
	}
	return &Decider{store: store, allow: append([]string(nil), allow...), now: now,
		once: map[string]bool{}, denied: map[string]bool{}, typed: map[string]bool{}}
}

// AllowSecrets sets the --allow-secret NAME@ORIGIN values of the
// invocation (checked by DecideBindings) and returns d.
func (d *Decider) AllowSecrets(flags []string) *Decider {
	d.allowSecret = append([]string(nil), flags...)
	return d
}

// Decide folds the store afresh (a grant or revocation made meanwhile, in
// another terminal, counts) and decides every server. servers must be EVERY
// stdio server the invocation declares: an --allow-mcp-stdio digest that is
// malformed (E303) or matches none of them (E302) is an error naming it, exit
// 2 — a typo must not pass silently. Precedence: denied this session, then a
// live grant, then the allow flag, then approved once; otherwise the server
// needs consent, with the diff against the earlier grant of the same server (Grants.Closest).
func (d *Decider) Decide(servers []*Resolved) ([]Decision, error) {
	return d.DecideWith(servers, nil)
}

// DecideWith is Decide where the invocation also declares bindings: an
// --allow-mcp-stdio digest may name a headers helper among them (a local
// program too, helper.go), which DecideBindings then approves.
func (d *Decider) DecideWith(servers []*Resolved, bindings []*Binding) ([]Decision, error) {
	if err := d.checkAllow(servers, bindings); err != nil {
		return nil, err
	}
	grants, storeErr := d.store.Fold()
	allowed := make(map[string]bool, len(d.allow))
	for _, a := range d.allow {
		allowed[a] = true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Decision, 0, len(servers))
	for _, r := range servers {
		dec := Decision{Server: r, StoreErr: storeErr}
		switch g, granted := grants.Get(r.Digest); {
		case d.denied[r.Digest]:
			dec.State = Denied
		case granted:
			dec.State, dec.Why, dec.Grant = Approved, ByGrant, g
		case allowed[r.Digest]:
			dec.State, dec.Why = Approved, ByAllowFlag
		case d.once[r.Digest]:
			dec.State, dec.Why = Approved, BySession
		case grants.Covering(r) != nil:
			// The same program under a tighter sandbox than it was granted.
			dec.State, dec.Why, dec.Grant = Approved, ByGrant, grants.Covering(r)
		default:
			diff := DiffAgainst(r, grants.Closest(r))
			dec.State, dec.Diff = NeedsConsent, &diff
		}
		out = append(out, dec)
	}
	return out, nil
}

func (d *Decider) checkAllow(servers []*Resolved, bindings []*Binding) error {
	var bad []error
	declared := make(map[string]bool, len(servers))
	for _, r := range servers {
		declared[r.Digest] = true
	}
	for _, b := range bindings {
		if b.Helper != nil {
			declared[b.Digest] = true
		}
	}
	for _, a := range d.allow {
		if err := CheckDigest("--allow-mcp-stdio", a); err != nil {
			bad = append(bad, err)
			continue
		}
		if !declared[a] {
			bad = append(bad, usage(CodeAllowUnmatched, "--allow-mcp-stdio %s matches no declared stdio server or headers helper (%s)", a, declaredList(servers)))
		}
	}
	switch len(bad) {
	case 0:
		return nil
	case 1:
		return bad[0]
	}
	var first *Error
	errors.As(bad[0], &first)
	msgs := make([]string, len(bad))
	for i, e := range bad {
		var ce *Error
		if errors.As(e, &ce) {
			msgs[i] = ce.Msg
		}
	}
	return &Error{ErrCode: first.ErrCode, Msg: strings.Join(msgs, "; "), Exit: fault.ExitUsage}
}

func declaredList(servers []*Resolved) string {
	if len(servers) == 0 {
		return "none is declared"
	}
	parts := make([]string, 0, len(servers))
	for i, r := range servers {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(servers)-i))
			break
		}
		parts = append(parts, quoteArg(r.Name)+" "+r.Digest)
	}
	return "declared: " + strings.Join(parts, ", ")
}

// ApproveOnce approves digest for this session; nothing is written. It lifts
// an earlier denial.
func (d *Decider) ApproveOnce(digest string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.once[digest] = true
	delete(d.denied, digest)
}

// Remember writes a grant for r (approve and remember) and approves it for
// the session too. On a store that fails closed a grant would have no
// effect, so nothing is written and nothing approved: the error (the
// store's code) says why and what to do, and the person can still approve
// once. On a write error nothing is approved either.
func (d *Decider) Remember(r *Resolved) error {
	if _, err := d.store.Fold(); err != nil {
		return StoreBlocks(err, fmt.Sprintf("server %s was not approved: a grant has no effect while the grant store cannot be read (approve it once instead, or repair the store)", quoteArg(r.Name)))
	}
	if err := d.store.Grant(r, d.now()); err != nil {
		return err
	}
	d.ApproveOnce(r.Digest)
	return nil
}

// Deny remembers a refusal for this session: Decide reports the server Denied
// (and no one is asked again) until Reask or an approval.
func (d *Decider) Deny(digest string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.denied[digest] = true
	delete(d.once, digest)
}

// Reask forgets this session's denial of digest, so the next Decide asks
// again: the explicit re-ask (the TUI's reconnect on a denied server).
func (d *Decider) Reask(digest string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.denied, digest)
}

// DeniedError is what a host reports for a server the person denied.
func DeniedError(r *Resolved) error {
	return &Error{ErrCode: CodeDenied, Msg: fmt.Sprintf("server %s: consent denied for %s (%s)", quoteArg(r.Name), r.CommandLine(), r.Digest)}
}
