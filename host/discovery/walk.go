package discovery

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
)

// Defaults of Options.
const (
	DefaultDeadline      = 60 * time.Second // the WHOLE paged walk, so paging slowly cannot outlive it
	DefaultMaxPages      = 512              // > 256 so a one-tool-per-page server still fits
	DefaultMaxEmptyPages = 8                // consecutive empty pages that still carry a cursor
	DefaultMaxSkipped    = 512              // SkippedTool rows kept per server
	maxCursorBytes       = 4096
)

// Options tune one discovery walk. The ingress bounds (256 tools, 8 KiB
// description, 1 MiB payload, 4 KiB literal, 256 B property name) are
// fixed, not options.
type Options struct {
	// Allowlist, when non-nil, is the server's tools_allowlist: only these
	// names are admitted, the rest are skipped as not_in_allowlist.
	Allowlist []string
	// Denylist is the server's tools_denylist: these names are skipped as
	// in_denylist, whatever the allowlist says.
	Denylist []string
	// Deadline bounds the whole walk (0 = 60 s).
	Deadline time.Duration
	// MaxPages caps tools/list requests (0 = 512); more is a failed walk.
	MaxPages int
	// MaxEmptyPages caps consecutive empty pages with a next cursor (0 = 8);
	// one more fails the walk.
	MaxEmptyPages int
	// MaxSchemaDepth caps JSON nesting inside a schema (0 = 32).
	MaxSchemaDepth int
	// MaxSkipped caps the SkippedTool rows kept (0 = 512); the rest are
	// counted in one skipped_list_truncated row.
	MaxSkipped int
}

// Catalogue is what one server's discovery admitted and refused.
type Catalogue struct {
	Server string
	// Tools are the admitted tools in declaration order.
	Tools []*Tool
	// Skipped are the refused tools in declaration order, then pseudo rows
	// (Tool "*") for paging_stopped and skipped_list_truncated.
	Skipped []engine.SkippedTool
	// MissingAllowlisted are allowlisted names the server did not offer
	// (when Truncated, they may sit on a page that was never fetched).
	MissingAllowlisted []string
	// Pages is how many tools/list requests the walk made.
	Pages int
	// PayloadBytes is what the admitted tools counted against the budget.
	PayloadBytes int
	// Truncated is set when paging stopped early (budget or tool cap).
	Truncated bool

	// What Discover decided, before any Namespace: Namespace starts from
	// these each time, so it can be re-run when a server reconnects.
	discovered        []*Tool
	discoveredSkipped []engine.SkippedTool
	discoveredBytes   int
}

// Defs returns the admitted tools' definitions.
func (c *Catalogue) Defs() []engine.ToolDef {
	out := make([]engine.ToolDef, len(c.Tools))
	for i, t := range c.Tools {
		out[i] = t.Def
	}
	return out
}

// errDeadline is the cause recorded when the walk's own deadline fires,
// so a deadline and a caller's cancellation are told apart.
var errDeadline = errors.New("discovery deadline")

// Discover walks server's tools/list pages through l and returns the
// bounded, checked and sanitized catalogue. It fails (an *Error) only when
// the walk itself fails: a request error, a malformed page, a cursor
// loop, too many pages, too many empty pages, the deadline or a
// cancellation. A bad tool never fails the walk; it becomes a Skipped row.
func Discover(ctx context.Context, server string, l Lister, opts Options) (*Catalogue, error) {
	if l == nil {
		return nil, &Error{Base: fault.Base{ErrCode: CodeInvalidOptions, Msg: "no lister"}, Server: server}
	}
	o := opts.withDefaults()
	ctx, cancel := context.WithTimeoutCause(ctx, o.Deadline, errDeadline)
	defer cancel()

	st := newWalkState(server, o)
	cursor := ""
	seen := map[string]bool{}
	empty := 0
	for {
		if st.cat.Pages >= o.MaxPages {
			return nil, &Error{Base: fault.Base{ErrCode: CodePageCap, Msg: fmt.Sprintf("the server sent more than %d tools/list pages", o.MaxPages)}, Server: server}
		}
		st.cat.Pages++
		raw, err := l.ListToolsRaw(ctx, cursor)
		if err != nil {
			return nil, classify(ctx, server, st.cat.Pages, o.Deadline, err)
		}
		if err := ctx.Err(); err != nil {
			return nil, classify(ctx, server, st.cat.Pages, o.Deadline, err)
		}
		ps, err := scanPage(raw)
		if err != nil {
			return nil, &Error{Base: fault.Base{ErrCode: CodeMalformedPage, Msg: fmt.Sprintf("tools/list page %d is malformed", st.cat.Pages), Cause: err}, Server: server}
		}
		next := ps.next
		count, err := st.addPage(ctx, ps)
		raw, ps = nil, nil // the page is judged: nothing of it is kept but what was admitted
		if err != nil {
			return nil, &Error{Base: fault.Base{ErrCode: CodeMalformedPage, Msg: fmt.Sprintf("tools/list page %d is malformed", st.cat.Pages), Cause: err}, Server: server}
		}
		if err := ctx.Err(); err != nil {
			return nil, classify(ctx, server, st.cat.Pages, o.Deadline, err)
		}
		if st.stopped != "" {
			if next != "" {
				st.cat.Truncated = true
				st.pseudo(ReasonPagingStopped, fmt.Sprintf("paging stopped after page %d (%s); later pages were not fetched", st.cat.Pages, st.stopped))
			}
			break
		}
		if next == "" {
			break
		}
		if count == 0 {
			empty++
			if empty > o.MaxEmptyPages {
				return nil, &Error{Base: fault.Base{ErrCode: CodeEmptyPages, Msg: fmt.Sprintf("the server sent %d empty tools/list pages in a row, each with a next cursor", empty)}, Server: server}
			}
		} else {
			empty = 0
		}
		if seen[next] {
			return nil, &Error{Base: fault.Base{ErrCode: CodeCursorLoop, Msg: fmt.Sprintf("page %d repeats the cursor %s sent earlier", st.cat.Pages, show(next))}, Server: server}
		}
		seen[next] = true
		cursor = next
	}
	st.finish()
	c := st.cat
	c.discovered = slices.Clone(c.Tools)
	c.discoveredSkipped = slices.Clone(c.Skipped)
	c.discoveredBytes = c.PayloadBytes
	return c, nil
}

func (o Options) withDefaults() Options {
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.MaxEmptyPages <= 0 {
		o.MaxEmptyPages = DefaultMaxEmptyPages
	}
	if o.MaxSchemaDepth <= 0 {
		o.MaxSchemaDepth = DefaultMaxSchemaDepth
	}
	if o.MaxSkipped <= 0 {
		o.MaxSkipped = DefaultMaxSkipped
	}
	return o
}

// classify turns a failed request into a typed walk failure. Precedence is
// decided here, not by which timer fired first: the caller's cancellation
// wins over the walk's deadline, and either wins over the transport error
// it caused.
func classify(ctx context.Context, server string, page int, deadline time.Duration, err error) error {
	if ctx.Err() != nil {
		if context.Cause(ctx) == errDeadline {
			return &Error{Base: fault.Base{ErrCode: CodeDeadline, Msg: fmt.Sprintf("tools/list discovery did not finish within %s (page %d)", deadline, page), Cause: err}, Server: server}
		}
		return &Error{Base: fault.Base{ErrCode: CodeCancelled, Msg: fmt.Sprintf("tools/list discovery was cancelled (page %d)", page), Cause: context.Cause(ctx)}, Server: server}
	}
	if errors.Is(err, errNotCaptured) {
		return &Error{Base: fault.Base{ErrCode: CodeNotCaptured, Msg: "tools/list answered but its raw result was not observed; wrap the transport with discovery.WrapTransport", Cause: err}, Server: server}
	}
	return &Error{Base: fault.Base{ErrCode: CodeListFailed, Msg: fmt.Sprintf("tools/list page %d failed", page), Cause: err}, Server: server}
}

// walkState accumulates one walk's decisions.
type walkState struct {
	server   string
	o        Options
	cat      *Catalogue
	allow    map[string]bool
	deny     map[string]bool
	index    int            // tools seen so far (declaration index)
	names    map[string]int // lower-cased valid name -> how many tools carry it
	stopped  string         // the reason paging stopped, once spent
	overflow map[string]int // skipped rows not kept, by code
	offered  map[string]bool
	// schemaObjects counts the admitted tools' schema objects (each is a
	// compiled validator node kept for the session).
	schemaObjects int
	compiled      *compileCache
}

func newWalkState(server string, o Options) *walkState {
	st := &walkState{server: server, o: o, cat: &Catalogue{Server: server}, names: map[string]int{}, overflow: map[string]int{}, offered: map[string]bool{}, compiled: newCompileCache()}
	if o.Allowlist != nil {
		st.allow = make(map[string]bool, len(o.Allowlist))
		for _, n := range o.Allowlist {
			st.allow[n] = true
		}
	}
	if len(o.Denylist) > 0 {
		st.deny = make(map[string]bool, len(o.Denylist))
		for _, n := range o.Denylist {
			st.deny[n] = true
		}
	}
	return st
}

// built is buildTool's answer for one entry of a page.
type built struct {
	rt        rawTool
	t         *Tool
	name, key string
	sk        *skip
	done      bool
	bailed    bool // left unbuilt: the batch had spent the budget
}

// addPage reads a page's tools as they come, a bounded batch at a time
// (batchTools tools, batchBytes bytes): each tool is measured and, when
// its raw measure refuses it, skipped unread; the rest of the batch is
// built and checked in parallel (each tool's checks and schema compile are
// independent), then admitted or refused one by one in declaration order,
// so the outcome is the same as a sequential walk. It returns how many
// tools the page listed.
func (st *walkState) addPage(ctx context.Context, ps *pageScan) (int, error) {
	count := 0
	var batch []built
	bytes := 0
	flush := func() {
		st.buildBatch(ctx, batch)
		for i := range batch {
			st.add(ctx, &batch[i])
			batch[i] = built{} // release the tool's bytes and tree
		}
		batch, bytes = batch[:0], 0
	}
	err := ps.eachTool(func(rt rawTool) bool {
		count++
		batch = append(batch, built{rt: rt})
		bytes += len(rt.data)
		if len(batch) >= batchTools || bytes >= batchBytes {
			flush()
		}
		return ctx.Err() == nil
	})
	if err != nil {
		return count, err
	}
	flush()
	return count, nil
}

// buildBatch judges the batch's tools (unless paging already stopped):
// those the raw measure refuses are skipped unread, the rest are parsed,
// checked and compiled by up to GOMAXPROCS workers. Once the tools built
// in this batch would spend what is left of the budget, a worker leaves
// the remaining ones unbuilt (bailed): add builds such a tool itself when
// its turn comes and the walk has not stopped, so the outcome is the
// sequential one, but a page of tools past the budget is not compiled.
func (st *walkState) buildBatch(ctx context.Context, batch []built) {
	if st.stopped != "" || len(batch) == 0 {
		return
	}
	var mu sync.Mutex
	bytes, objects, tools := st.cat.PayloadBytes, st.schemaObjects, len(st.cat.Tools)
	spent := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return tools >= MaxToolsPerServer || MaxPayload-bytes < minToolSize || objects >= MaxSchemaObjects
	}
	workers := min(runtime.GOMAXPROCS(0), len(batch))
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				b := &batch[i]
				if ctx.Err() != nil {
					continue
				}
				if spent() {
					b.bailed = true
					continue
				}
				b.build(st, st.index+i)
				if b.t != nil {
					mu.Lock()
					bytes, objects, tools = bytes+b.t.Size, objects+b.t.schemaObjects, tools+1
					mu.Unlock()
				}
			}
		}()
	}
	for i := range batch {
		next <- i
	}
	close(next)
	wg.Wait()
}

// build judges one tool: unread when its raw measure refuses it, else
// parsed into a tree (bounded by that measure) and checked.
func (b *built) build(st *walkState, index int) {
	defer func() { b.done = true }()
	if sk := b.rt.prejudge(index); sk != nil {
		b.name, b.key = b.rt.name(index)
		if sk.code == ReasonInvalidTool {
			b.key = "" // not an object: it has no name
		}
		b.sk = sk
		return
	}
	n, err := parseJSON(b.rt.data)
	if err != nil { // the page scan accepted it: not reached
		b.name, b.sk = fmt.Sprintf("#%d", index), skipf(ReasonInvalidTool, "tools[%d] does not parse: %s", index, err)
		return
	}
	b.t, b.name, b.key, b.sk = buildTool(st.server, index, n, st.allow, st.deny, st.o.MaxSchemaDepth, st.compiled)
}

func (st *walkState) add(ctx context.Context, b *built) {
	idx := st.index
	st.index++
	if b.bailed && st.stopped == "" && ctx.Err() == nil {
		b.build(st, idx)
	}
	if st.stopped != "" || !b.done {
		name, key := b.rt.name(idx)
		if key != "" {
			st.names[strings.ToLower(key)]++
			st.offered[key] = true
		}
		reason := st.stopped
		if reason == "" {
			return // cancelled mid-page: the walk fails, nothing is recorded
		}
		detail := "refused after the server's discovery budget was spent"
		if reason == ReasonTooManyTools {
			detail = fmt.Sprintf("refused: the server already has %d admitted tools", MaxToolsPerServer)
		}
		st.skip(name, reason, detail)
		return
	}
	t, name, key, sk := b.t, b.name, b.key, b.sk
	if key != "" {
		st.names[strings.ToLower(key)]++
		st.offered[key] = true
	}
	if sk != nil {
		st.skip(name, sk.code, sk.detail)
		return
	}
	if len(st.cat.Tools) >= MaxToolsPerServer {
		st.stopped = ReasonTooManyTools
		st.skip(name, ReasonTooManyTools, fmt.Sprintf("the server already has %d admitted tools", MaxToolsPerServer))
		return
	}
	if st.cat.PayloadBytes+t.Size > MaxPayload {
		st.stopped = ReasonAggregateBudget
		st.skip(name, ReasonAggregateBudget, fmt.Sprintf("%d bytes would bring the server's discovery payload to %d, bound %d", t.Size, st.cat.PayloadBytes+t.Size, MaxPayload))
		return
	}
	if st.schemaObjects+t.schemaObjects > MaxSchemaObjects {
		st.stopped = ReasonAggregateBudget
		st.skip(name, ReasonAggregateBudget, fmt.Sprintf("%d schema objects would bring the server's discovery total to %d, bound %d", t.schemaObjects, st.schemaObjects+t.schemaObjects, MaxSchemaObjects))
		return
	}
	st.cat.PayloadBytes += t.Size
	st.schemaObjects += t.schemaObjects
	st.cat.Tools = append(st.cat.Tools, t)
	// When nothing later can be admitted, stop here rather than fetch a
	// page only to refuse all of it.
	switch {
	case len(st.cat.Tools) == MaxToolsPerServer:
		st.stopped = ReasonTooManyTools
	case MaxPayload-st.cat.PayloadBytes < minToolSize, st.schemaObjects >= MaxSchemaObjects:
		st.stopped = ReasonAggregateBudget
	}
}

// minToolSize is the smallest budget a tool can count: a one-byte name and
// the inputSchema {"type":"object"}.
const minToolSize = 1 + len(`{"type":"object"}`)

func (st *walkState) skip(tool, code, detail string) {
	if len(st.cat.Skipped) >= st.o.MaxSkipped {
		st.overflow[code]++
		return
	}
	st.cat.Skipped = append(st.cat.Skipped, engine.SkippedTool{Server: st.server, Tool: tool, Code: code, Detail: detail})
}

func (st *walkState) pseudo(code, detail string) {
	st.cat.Skipped = append(st.cat.Skipped, engine.SkippedTool{Server: st.server, Tool: "*", Code: code, Detail: detail})
}

// finish applies the rules that need the whole walk: duplicate names
// (case-insensitively, across admitted and refused tools alike: the server
// could route a call for that name to either), missing allowlisted names,
// the overflow summary.
func (st *walkState) finish() {
	kept := st.cat.Tools[:0]
	var dups []*Tool
	for _, t := range st.cat.Tools {
		if st.names[strings.ToLower(t.Def.Tool)] > 1 {
			dups = append(dups, t)
			continue
		}
		kept = append(kept, t)
	}
	st.cat.Tools = kept
	for _, t := range dups {
		st.cat.PayloadBytes -= t.Size
		st.skip(displayName(t.Def.Tool), ReasonDuplicateToolName, fmt.Sprintf("the server lists %d tools named %s (case-insensitively); none is admitted", st.names[strings.ToLower(t.Def.Tool)], show(t.Def.Tool)))
	}
	if st.allow != nil {
		for _, n := range st.o.Allowlist {
			if !st.offered[n] {
				st.cat.MissingAllowlisted = append(st.cat.MissingAllowlisted, n)
			}
		}
	}
	if len(st.overflow) > 0 {
		total := 0
		var parts []string
		for code, n := range st.overflow {
			total += n
			parts = append(parts, fmt.Sprintf("%s×%d", code, n))
		}
		slices.Sort(parts)
		st.pseudo(ReasonSkippedListTruncate, fmt.Sprintf("%d more tools were refused: %s", total, strings.Join(parts, ", ")))
	}
}
