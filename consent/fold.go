package consent

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Grant is one live grant after the fold. Everything but Digest is comparison
// metadata for the prompt's diff, cut to the write-side bounds.
type Grant struct {
	Digest    string      `json:"digest"`
	Command   string      `json:"command"`
	Args      []string    `json:"args"`
	EnvNames  []string    `json:"env_names"`
	EnvKinds  []EnvKindOf `json:"env_kinds,omitempty"` // sorted by name; nil when the writer recorded no kinds
	Cwd       string      `json:"cwd"`
	GrantedAt time.Time   `json:"granted_at"`
	Line      int         `json:"line"` // 1-based line of the grant in the store
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

// Closest returns the live grant most like r, for the diff: same cwd and
// command, else same command, else same cwd; the newest within a tier. A grant
// for r's own digest is not "earlier", so it is skipped. nil when none.
func (g *Grants) Closest(r *Resolved) *Grant {
	var best *Grant
	bestTier := 0
	for _, gr := range g.byDigest {
		if gr.Digest == r.Digest {
			continue
		}
		sameCmd := metaEqual(gr.Command, r.Command, maxMetaPath)
		sameCwd := metaEqual(gr.Cwd, r.Cwd, maxMetaPath)
		tier := 0
		switch {
		case sameCmd && sameCwd:
			tier = 3
		case sameCmd:
			tier = 2
		case sameCwd:
			tier = 1
		}
		if tier == 0 {
			continue
		}
		if tier > bestTier || tier == bestTier && newestFirst(gr, best) < 0 {
			best, bestTier = gr, tier
		}
	}
	return best
}

// FoldError says why the store failed closed: the first line that could not
// be parsed. Callers show it and treat the store as holding no grants.
type FoldError struct {
	Path   string `json:"path"`
	Line   int    `json:"line"` // 0 when the file as a whole is refused (too large)
	Reason string `json:"reason"`
}

func (e *FoldError) Error() string { return CodeStoreUnreadable + ": " + e.Message() }

// Code is E311.
func (e *FoldError) Code() string { return CodeStoreUnreadable }

// Message names the file, line and reason and says what follows from it.
func (e *FoldError) Message() string {
	const then = "; the store reads as holding no grants, so every stdio server is asked about again until"
	if e.Line == 0 {
		return fmt.Sprintf("grant store %s: %s%s it is repaired", quoteArg(e.Path), e.Reason, then)
	}
	return fmt.Sprintf("grant store %s line %d: %s%s the line is repaired or removed", quoteArg(e.Path), e.Line, e.Reason, then)
}

// ErrorData is the failure as data for an envelope.
func (e *FoldError) ErrorData() any { return e }

// Fold reads the store and folds it in order: a grant adds (or refreshes) its
// digest, a revocation removes an earlier grant. Blank lines separate nothing
// and are skipped; a trailing CR is JSON whitespace. ANY other line that does
// not parse as a grant or revocation fails the whole fold closed: the result
// is empty and the error is a *FoldError naming the line and the reason — a
// truncated last line may be a revocation, and skipping it would resurrect
// revoked trust. A refused or unreadable file is an *Error (E310/E312) with
// empty grants too. The returned *Grants is never nil.
func (s *Store) Fold() (*Grants, error) {
	empty := &Grants{byDigest: map[string]*Grant{}}
	data, err := s.read()
	if err != nil {
		return empty, err
	}
	g, ferr := foldBytes(data)
	if ferr != nil {
		ferr.Path = s.path
		return empty, ferr
	}
	return g, nil
}

// foldBytes folds the store's content. Every parsed field is a substring of
// data, so a 100 000-line fold allocates per record, not per field.
func foldBytes(data string) (*Grants, *FoldError) {
	g := &Grants{byDigest: make(map[string]*Grant, strings.Count(data, "\n")+1)}
	var a arena
	lineNo := 0
	for len(data) > 0 {
		lineNo++
		var line string
		nl := strings.IndexByte(data, '\n')
		complete := nl >= 0
		if complete {
			line, data = data[:nl], data[nl+1:]
		} else {
			line, data = data, ""
		}
		if len(line) > maxLineBytes {
			return nil, &FoldError{Line: lineNo, Reason: fmt.Sprintf("longer than %d bytes", maxLineBytes)}
		}
		line = strings.Trim(line, " \t\r")
		if line == "" {
			continue
		}
		rec, reason := parseLine(line, lineNo, &a)
		if reason != "" {
			if !complete {
				reason = "truncated last line (no newline) that does not parse: " + reason
			}
			return nil, &FoldError{Line: lineNo, Reason: reason}
		}
		if rec.grant != nil {
			g.byDigest[rec.grant.Digest] = rec.grant
		} else {
			delete(g.byDigest, rec.revokes)
		}
	}
	return g, nil
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
