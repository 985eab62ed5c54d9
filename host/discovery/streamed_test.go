package discovery

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// walkMemory discovers through l while sampling the heap, and returns the
// catalogue, the bytes allocated during the walk and the peak heap in use
// seen (sampled, so a lower bound of the true peak; the allocation total
// bounds it from above).
func walkMemory(t *testing.T, server string, l Lister) (*Catalogue, error, uint64, uint64) {
	t.Helper()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	stop := make(chan struct{})
	var peak uint64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var m runtime.MemStats
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	cat, err := Discover(context.Background(), server, l, Options{})
	close(stop)
	wg.Wait()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	return cat, err, after.TotalAlloc - before.TotalAlloc, peak - min(peak, before.HeapInuse)
}

// memoryBound is the bound on relavium's own memory for any page up
// to the stdio line cap. The old tree-based walk allocated 1.7 GB for the
// giant line and ~450 MB for the 1.3 MB page of subschemas.
const memoryBound = 100 << 20

func skippedCodes(cat *Catalogue) map[string]string {
	m := map[string]string{}
	for _, sk := range cat.Skipped {
		m[sk.Tool] = sk.Code
	}
	return m
}

func admittedNames(cat *Catalogue) []string {
	var out []string
	for _, tl := range cat.Tools {
		out = append(out, tl.Def.Tool)
	}
	return out
}

// A 14.6 MiB tools/list line from a real stdio server: the giant tool is
// refused unread, whatever its shape, the small tools around it are
// admitted, and the walk stays far inside the memory bound (the SDK never
// decodes the page: it is taken off the byte stream).
func TestGiantLineIsJudgedWithinTheBudget(t *testing.T) {
	for _, variant := range []string{"desc", "schema", "meta", "values"} {
		t.Run(variant, func(t *testing.T) {
			s := connect(t, viaStdio, "-case", "giant-line", "-variant", variant)
			cat, err, alloc, peak := walkMemory(t, "giant", s.lister)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := admittedNames(cat), []string{"before", "after_1", "after_2"}; !slices.Equal(got, want) {
				t.Errorf("admitted %q, want %q (skipped %+v)", got, want, cat.Skipped)
			}
			if code := skippedCodes(cat)["giant"]; code != ReasonToolTooLarge {
				t.Errorf("giant: %q, want %s", code, ReasonToolTooLarge)
			}
			t.Logf("allocated %d MiB, peak heap in use +%d MiB", alloc>>20, peak>>20)
			if alloc > memoryBound {
				t.Errorf("the walk allocated %d MiB, bound %d MiB", alloc>>20, memoryBound>>20)
			}
		})
	}
}

// A 1.3 MB page of tools small in bytes but rich in subschemas: admitted
// tools stop at the schema-object budget, and memory with them.
func TestSubschemaPageIsBoundedBySchemaObjects(t *testing.T) {
	s := connect(t, viaStdio, "-case", "subschemas")
	cat, err, alloc, peak := walkMemory(t, "many", s.lister)
	if err != nil {
		t.Fatal(err)
	}
	objects := 0
	for _, tl := range cat.Tools {
		objects += tl.schemaObjects
	}
	if len(cat.Tools) == 0 || objects > MaxSchemaObjects {
		t.Errorf("admitted %d tools with %d schema objects, want some and at most %d", len(cat.Tools), objects, MaxSchemaObjects)
	}
	if code := skippedCodes(cat)["last_small"]; code != ReasonAggregateBudget {
		t.Errorf("last_small: %q, want %s once the schema objects are spent", code, ReasonAggregateBudget)
	}
	t.Logf("admitted %d tools, %d schema objects; allocated %d MiB, peak heap in use +%d MiB", len(cat.Tools), objects, alloc>>20, peak>>20)
	if alloc > memoryBound {
		t.Errorf("the walk allocated %d MiB, bound %d MiB", alloc>>20, memoryBound>>20)
	}
}

// A tool nested 1,000,000 levels deep and one 30,000 deep: each is refused
// on its own (the first unread, over the byte bound; the second by the
// schema depth rule, parsed no deeper than the parser's cap), and the
// tools around them are admitted. Over the SDK's own stdio connection
// the same page ends the session (its decoder refuses the nesting), which
// is why the page is taken off the byte stream.
func TestDeepNestingIsRefusedPerTool(t *testing.T) {
	s := connect(t, viaStdio, "-case", "deep")
	cat, err, alloc, _ := walkMemory(t, "deep", s.lister)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := admittedNames(cat), []string{"shallow_a", "shallow_b"}; !slices.Equal(got, want) {
		t.Errorf("admitted %q, want %q (skipped %+v)", got, want, cat.Skipped)
	}
	codes := skippedCodes(cat)
	if codes["deep_million"] != ReasonToolTooLarge || codes["deep_30k"] != ReasonSchemaTooDeep {
		t.Errorf("skipped %v, want deep_million %s and deep_30k %s", codes, ReasonToolTooLarge, ReasonSchemaTooDeep)
	}
	if alloc > memoryBound {
		t.Errorf("the walk allocated %d MiB, bound %d MiB", alloc>>20, memoryBound>>20)
	}

	sdk := connect(t, viaStdioSDK, "-case", "deep")
	_, err = Discover(context.Background(), "deep", sdk.lister, Options{})
	var de *Error
	if !errors.As(err, &de) || de.Code() != CodeListFailed {
		t.Errorf("through the SDK's own stdio reader: err = %v, want %s (the SDK refuses the nesting)", err, CodeListFailed)
	}
}
