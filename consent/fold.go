package consent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/relavium/relavium/sandbox"

	"github.com/relavium/relavium/fault"
)

// Grant is one live grant after the fold. Everything but Digest is comparison
// metadata for the prompt's diff, cut to the write-side bounds.
type Grant struct {
	Digest    string      `json:"digest"`
	Server    string      `json:"server,omitempty"` // the declared name it was granted under; "" on older lines
	Command   string      `json:"command"`
	Args      []string    `json:"args"`
	EnvNames  []string    `json:"env_names"`
	EnvKinds  []EnvKindOf `json:"env_kinds,omitempty"` // sorted by name; nil when the writer recorded no kinds
	Cwd       string      `json:"cwd"`
	GrantedAt time.Time   `json:"granted_at"`
	Line      int         `json:"line"` // 1-based line of the grant in the store
	// Sandbox is the sandbox policy granted (sandbox.Policy.Words); nil on
	// a grant written without one.
	Sandbox []string `json:"sandbox,omitempty"`
	// Secret, Origin and Headers are set on a secret binding's grant
	// (binding.go): the secret's name, the origin it may go to and the
	// header names approved to carry it. Command, Args, EnvNames and Cwd
	// are then empty.
	Secret  string   `json:"secret,omitempty"`
	Origin  string   `json:"origin,omitempty"`
	Headers []string `json:"headers,omitempty"`

	text *chunk // the chunk its strings live in (foldmem.go)
	box  *chunk // the chunk it lives in, if any
	own  int    // bytes of its own allocations
}

// KindOf returns the recorded kind of env name; false when the writer
// recorded none for it.
func (g *Grant) KindOf(name string) (EnvKind, bool) {
	for _, k := range g.EnvKinds {
		if k.Name == name {
			return k.Kind, k.Kind != ""
		}
	}
	return "", false
}

// IsBinding reports whether g binds a secret to an origin (not a stdio
// program).
func (g *Grant) IsBinding() bool { return g.Secret != "" }

// CommandLine is the granted command and args for display.
func (g *Grant) CommandLine() string { return commandLine(g.Command, g.Args) }

// Grants is the folded store: the live grants by digest.
type Grants struct {
	byDigest map[string]*Grant
}

// Has reports whether digest has a live grant.
func (g *Grants) Has(digest string) bool {
	_, ok := g.byDigest[digest]
	return ok
}

// Get returns the live grant for digest.
func (g *Grants) Get(digest string) (*Grant, bool) {
	gr, ok := g.byDigest[digest]
	return gr, ok
}

// Len is the number of live grants.
func (g *Grants) Len() int { return len(g.byDigest) }

// List returns the live grants newest first (by grant time, then by line).
func (g *Grants) List() []*Grant {
	out := make([]*Grant, 0, len(g.byDigest))
	for _, gr := range g.byDigest {
		out = append(out, gr)
	}
	slices.SortFunc(out, newestFirst)
	return out
}

func newestFirst(a, b *Grant) int {
	if c := b.GrantedAt.Compare(a.GrantedAt); c != 0 {
		return c
	}
	return b.Line - a.Line
}

// Closest returns the earlier live grant the diff compares r with: one for
// the same server identity, the newest if several. A grant that recorded
// its server's name is r's when the name and cwd are r's (the command may
// have changed: that is the change a person must see); a grant with no
// name (written by an older relavium or another host) is r's only when its
// command and cwd are r's. Anything else is another program, never compared
// (a /bin/sh server diffed against a node grant would mislead), and r is a
// first approval. A grant for r's own digest is not "earlier". nil when none.
func (g *Grants) Closest(r *Resolved) *Grant {
	var best *Grant
	for _, gr := range g.byDigest {
		if gr.IsBinding() || gr.IsLocal() || gr.IsHelper() || gr.Digest == r.Digest || !metaEqual(gr.Cwd, r.Cwd, maxMetaPath) {
			continue
		}
		same := gr.Server == r.Name
		if gr.Server == "" {
			same = metaEqual(gr.Command, r.Command, maxMetaPath)
		}
		if same && (best == nil || newestFirst(gr, best) < 0) {
			best = gr
		}
	}
	return best
}

// Covering returns a live grant for r's program (same digested command,
// args, env and cwd) under a sandbox policy that allows everything r's
// does: r tightened its policy, which does not ask again. The grant's
// digest is recomputed from r with the granted policy, so a grant line
// whose policy words do not match its own digest proves nothing. nil when
// r has no policy or no such grant lives.
func (g *Grants) Covering(r *Resolved) *Grant {
	if r.Sandbox == nil {
		return nil
	}
	var best *Grant
	for _, gr := range g.byDigest {
		if len(gr.Sandbox) == 0 || gr.Cwd != r.Cwd || best != nil && newestFirst(gr, best) >= 0 {
			continue
		}
		granted, ok := sandbox.ParseWords(gr.Sandbox)
		if !ok || !granted.Covers(*r.Sandbox) {
			continue
		}
		if d, err := fileDigest(r.Command, r.Args, r.Env, r.Cwd, &granted, r.EnvFile); err == nil && d == gr.Digest {
			best = gr
		}
	}
	return best
}

// FoldError says why the store failed closed: the first line that could not
// be parsed. Callers show it and treat the store as holding no grants.
type FoldError struct {
	fault.Base `json:"-"` // E311 (set by foldError); the data is the fields below
	Path       string     `json:"path"`
	Line       int        `json:"line"` // 0 when the file as a whole is refused (too large)
	Reason     string     `json:"reason"`
}

func foldError(path string, line int, reason string) *FoldError {
	return &FoldError{Base: fault.Base{ErrCode: CodeStoreUnreadable}, Path: path, Line: line, Reason: reason}
}

func (e *FoldError) Error() string { return string(e.ErrCode) + ": " + e.Message() }

// Message names the file, line and reason, says what follows from it and
// what the person can do. It never offers to drop lines silently: which line
// to repair is the person's call, and a damaged line may be a revocation.
func (e *FoldError) Message() string {
	const then = "; the store reads as holding no grants, so every stdio server is asked about again until"
	if e.Line == 0 {
		return fmt.Sprintf("grant store %s: %s%s it is repaired (delete grants no longer needed, or move the file away to start with no grants)",
			quoteArg(e.Path), e.Reason, then)
	}
	return fmt.Sprintf("grant store %s line %d: %s%s you repair or delete line %d (if it was a revocation, revoke that digest again once it is deleted)",
		quoteArg(e.Path), e.Line, e.Reason, then, e.Line)
}

// ErrorData is the failure as data for an envelope.
func (e *FoldError) ErrorData() any { return e }

// maxLiveBytes bounds the memory the live grants of one fold may hold (each
// live grant counts its line and its bookkeeping). A fold reads the store one
// line at a time, so with this bound its memory is independent of the
// file's size: one line (maxLineBytes), a read buffer, and at most this much
// of live grants. A store beyond it fails the fold closed; no person grants
// that much (100 000 typical grants hold about 60 MiB).
const maxLiveBytes = 96 << 20

// Fold reads the store and folds it in order: a grant adds (or refreshes) its
// digest, a revocation removes an earlier grant. Blank lines separate nothing
// and are skipped; a trailing CR is JSON whitespace. ANY other line that does
// not parse as a grant or revocation fails the whole fold closed: the result
// is empty and the error is a *FoldError naming the line and the reason — a
// truncated last line may be a revocation, and skipping it would resurrect
// revoked trust. A refused or unreadable file is an *Error (E310/E312) with
// empty grants too, and so is a home CheckHome refuses (E318). The returned
// *Grants is never nil. The file is read line by line (see maxLiveBytes):
// memory does not grow with its size.
func (s *Store) Fold() (*Grants, error) {
	f := newFolder()
	return f.result(s.scan(f.add), s.path)
}

// foldReader folds store content read from r, with the store's line cap but
// no file-size bound; Fold is this over the file under its lock.
func foldReader(r io.Reader, path string) (*Grants, error) {
	f := newFolder()
	return f.result(readLines(r, maxLineBytes, f.add), path)
}

// folder folds lines as they are read (see foldmem.go for what it keeps).
type folder struct {
	g       *Grants
	a       arena // per-line scratch for the decoder
	text    textArena
	boxes   boxArena
	live    int // bytes the live grants hold
	maxLive int // the bound on live: maxLiveBytes
}

func newFolder() *folder {
	return &folder{g: &Grants{byDigest: map[string]*Grant{}}, maxLive: maxLiveBytes}
}

// add folds one line; a *FoldError stops the fold.
func (f *folder) add(raw []byte, lineNo int, complete bool) error {
	raw = bytes.Trim(raw, " \t\r")
	if len(raw) == 0 {
		return nil
	}
	f.a.reset()
	line, text := f.text.add(raw)
	rec, reason := parseLine(line, lineNo, &f.a, &f.boxes)
	if reason != "" {
		if !complete {
			reason = "truncated last line (no newline) that does not parse: " + reason
		}
		return foldError("", lineNo, reason)
	}
	if g := rec.grant; g != nil {
		if old, ok := f.g.byDigest[g.Digest]; ok {
			f.unpin(old)
		}
		g.text = text
		f.g.byDigest[g.Digest] = g
		f.pin(g)
		if f.live > f.maxLive {
			return foldError("", 0, fmt.Sprintf("by line %d the live grants hold more than %d MiB, more than a grant store may hold in memory", lineNo, f.maxLive>>20))
		}
	} else if old, ok := f.g.byDigest[rec.revokes]; ok {
		f.unpin(old)
		delete(f.g.byDigest, rec.revokes)
	}
	return nil
}

// result is the fold's outcome: the grants, or no grants and why.
func (f *folder) result(err error, path string) (*Grants, error) {
	if err == nil {
		return f.g, nil
	}
	empty := &Grants{byDigest: map[string]*Grant{}}
	var lf *lineFault
	if errors.As(err, &lf) {
		return empty, foldError(path, lf.Line, lf.Reason)
	}
	var fe *FoldError
	if errors.As(err, &fe) {
		fe.Path = path
	}
	return empty, err
}

// describeStoreProblem is one line for a person about why grants were not
// trusted; "" when err is nil.
func describeStoreProblem(err error) string {
	if err == nil {
		return ""
	}
	if m, ok := err.(interface{ Message() string }); ok {
		return strings.TrimSpace(m.Message())
	}
	return err.Error()
}
