package consent

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// Memory independence of the fold (issue 12): a fold holds one line, a
// read buffer and the live grants, whatever the file's size or the length
// of any line in it. These tests check it structurally: heap growth far
// below the input size. BenchmarkRatioFoldMemory reports the figure.

// heapGrowthBound is the generous structural bound on heap growth while
// folding hundreds of megabytes: a line cap (1 MiB), buffers, the live
// grants of the test stores, and the collector's slack.
const heapGrowthBound = 16 << 20

// cycleLines is a period of store lines over 100 digests: 90 grants, each
// tenth line a revocation of the grant before it. Folding any whole number
// of periods leaves the same 80 live grants, whatever the count.
func cycleLines(tb testing.TB) []byte {
	tb.Helper()
	var b strings.Builder
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var last string
	for i := range 100 {
		at = at.Add(time.Second)
		if i%10 == 9 {
			l, err := encodeRevoke(last, at)
			if err != nil {
				tb.Fatal(err)
			}
			b.Write(l)
			continue
		}
		r := mustResolved(fmt.Sprintf("s%d", i), "/usr/local/bin/npx",
			[]string{"-y", fmt.Sprintf("@modelcontextprotocol/server-filesystem@%d", i), "/home/user/projects/app"},
			[]EnvEntry{TagEnv("GITHUB_TOKEN", "{{secrets.github_token}}"), TagEnv("LOG_LEVEL", "debug")}, "/home/user/projects/app")
		l, err := encodeGrant(r, at)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(l)
		last = r.Digest
	}
	return []byte(b.String())
}

const cycleLive = 80 // live grants after any whole number of cycleLines

// repeatReader yields unit n times, then EOF, calling every (when set)
// each time it has yielded another MiB or so and once at the end: a
// synthesized input of any size that costs no disk and no memory.
type repeatReader struct {
	unit  []byte
	n     int64
	off   int
	every func()
	since int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		if r.every != nil && r.since >= 0 {
			r.since = -1 // once, at the end
			r.every()
		}
		return 0, io.EOF
	}
	c := copy(p, r.unit[r.off:])
	r.off += c
	if r.off == len(r.unit) {
		r.off = 0
		r.n--
	}
	if r.every != nil {
		if r.since += c; r.since >= 1<<20 {
			r.since = 0
			r.every()
		}
	}
	return c, nil
}

// heapWatch records the peak heap above a baseline, sampled on a timer and
// wherever sample is called. While it watches, the collector runs at
// GOGC=10, so the heap in use stays close to what is live: the figure is
// what the fold holds, not garbage the collector has yet to reclaim (how
// much of that there is depends on the pacer and the machine's load).
type heapWatch struct {
	mu      sync.Mutex
	base    uint64
	peak    uint64
	percent int
	stop    chan struct{}
	done    chan struct{}
}

func watchHeap() *heapWatch {
	w := &heapWatch{percent: debug.SetGCPercent(10), stop: make(chan struct{}), done: make(chan struct{})}
	runtime.GC()
	w.base = heapInUse()
	w.peak = w.base
	go func() {
		defer close(w.done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-tick.C:
				w.sample()
			}
		}
	}()
	return w
}

func heapInUse() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func (w *heapWatch) sample() {
	h := heapInUse()
	w.mu.Lock()
	w.peak = max(w.peak, h)
	w.mu.Unlock()
}

// growth stops the watch and returns the peak growth over the baseline.
// Call it while the fold's result is still referenced.
func (w *heapWatch) growth() uint64 {
	close(w.stop)
	<-w.done
	w.sample()
	debug.SetGCPercent(w.percent)
	return w.peak - w.base
}

// TestFoldMemoryIndependentOfFileSize folds a real 200 MB store file (written
// in a temporary directory, streamed) and keeps the heap's growth a small
// fraction of it: the fold never holds the file.
func TestFoldMemoryIndependentOfFileSize(t *testing.T) {
	const size = 200 << 20
	home := tempHome(t)
	cycle := cycleLines(t)
	periods := size / len(cycle)
	f, err := os.OpenFile(Open(home).Path(), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(f, &repeatReader{unit: cycle, n: int64(periods)}); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(Open(home).Path())
	if err != nil || st.Size() < size*9/10 {
		t.Fatalf("store of %d bytes (%v), want about %d", st.Size(), err, size)
	}

	w := watchHeap()
	g, err := Open(home).Fold()
	grew := w.growth()
	if err != nil || g.Len() != cycleLive {
		t.Fatalf("fold of %d bytes: %d grants, %v", st.Size(), g.Len(), err)
	}
	t.Logf("folded %d MiB (%d lines): heap grew %.1f MiB at most", st.Size()>>20, periods*100, float64(grew)/(1<<20))
	if grew > heapGrowthBound {
		t.Fatalf("folding a %d MiB store grew the heap by %d MiB (bound %d MiB): the fold holds the file", st.Size()>>20, grew>>20, heapGrowthBound>>20)
	}
}

// TestFoldOneGigabyteLine feeds the fold a store whose second line is 1 GiB
// long (synthesized, no disk): the fold fails closed at that line, and
// neither it nor a reader that goes on past the line keeps it.
func TestFoldOneGigabyteLine(t *testing.T) {
	const lineSize = 1 << 30
	unit := []byte(strings.Repeat("x", 64<<10))
	good := gl(dA, t1) + "\n"
	input := func(every func()) io.Reader {
		return io.MultiReader(strings.NewReader(good), &repeatReader{unit: unit, n: lineSize / int64(len(unit)), every: every},
			strings.NewReader("\n"+gl(dB, t2)+"\n"))
	}

	w := watchHeap()
	g, err := foldReader(input(w.sample), "/h/"+StoreFile)
	grew := w.growth()
	var fe *FoldError
	if !errors.As(err, &fe) || fe.Line != 2 || !strings.Contains(fe.Reason, "longer than") || g.Len() != 0 {
		t.Fatalf("fold of a store with a 1 GiB line: %v (%d grants)", err, g.Len())
	}
	if grew > heapGrowthBound {
		t.Fatalf("the fold grew the heap by %d MiB on a 1 GiB line (bound %d MiB)", grew>>20, heapGrowthBound>>20)
	}

	// The reader consumes the whole line without keeping it and goes on.
	w = watchHeap()
	var lines []readLine
	lr := newLineReader(bufio.NewReader(input(w.sample)), maxLineBytes)
	for {
		line, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			t.Fatal(err)
		}
		lines = append(lines, readLine{text: string(line), no: lr.line(), tooLong: err != nil})
	}
	grew = w.growth()
	if len(lines) != 3 || !lines[1].tooLong || lines[2].text != gl(dB, t2) || lines[2].no != 3 {
		t.Fatalf("lines read around a 1 GiB line: %+v", lines)
	}
	if grew > heapGrowthBound {
		t.Fatalf("reading past a 1 GiB line grew the heap by %d MiB (bound %d MiB)", grew>>20, heapGrowthBound>>20)
	}
	t.Logf("1 GiB line: heap grew %.1f MiB at most", float64(grew)/(1<<20))
}

// TestFoldCountsWhatLiveGrantsPin checks the live-memory accounting that
// bounds a fold: a live grant pins its text chunk in full, revoking
// everything returns the count to zero, and a fold whose live grants would
// hold more than the bound fails closed.
func TestFoldCountsWhatLiveGrantsPin(t *testing.T) {
	digest := func(i int) string { return fmt.Sprintf("v1:%064x", i) }
	// Sparse live grants: each followed by enough churn of one other digest
	// to fill its text chunk, so every live grant pins a chunk of its own.
	var b strings.Builder
	const live = 20
	for i := range live {
		b.WriteString(gl(digest(i), t1) + "\n")
		for b.Len() < (i+1)*textChunkSize+textChunkSize/2 {
			b.WriteString(gl(digest(1_000_000), t1) + "\n" + rl(digest(1_000_000), t2) + "\n")
		}
	}
	f := newFolder()
	if err := readLines(strings.NewReader(b.String()), maxLineBytes, f.add); err != nil {
		t.Fatal(err)
	}
	if f.g.Len() != live || f.live < live*textChunkSize {
		t.Fatalf("%d live grants count %d bytes, want at least %d (a chunk each)", f.g.Len(), f.live, live*textChunkSize)
	}
	for i := range live {
		if err := f.add([]byte(rl(digest(i), t2)), 0, true); err != nil {
			t.Fatal(err)
		}
	}
	if f.g.Len() != 0 || f.live != 0 {
		t.Fatalf("after revoking everything: %d grants, %d bytes counted", f.g.Len(), f.live)
	}

	// Past the bound the fold fails closed, naming the bound (a small bound
	// here; the fold's own is maxLiveBytes).
	var many strings.Builder
	for i := range 1000 {
		many.WriteString(gl(digest(i), t1) + "\n")
	}
	f = newFolder()
	f.maxLive = 4 * textChunkSize
	g, err := f.result(readLines(strings.NewReader(many.String()), maxLineBytes, f.add), "/h/"+StoreFile)
	var fe *FoldError
	if !errors.As(err, &fe) || fe.Line != 0 || !strings.Contains(fe.Reason, "live grants hold more than") || g.Len() != 0 {
		t.Fatalf("fold past the live bound: %v (%d grants)", err, g.Len())
	}
	if !strings.Contains(fe.Error(), "move the file away") {
		t.Fatalf("the refusal does not say what to do: %s", fe.Error())
	}
}
