package stream

import (
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/nesting"
)

// The messages before a too-deep one in the same read are delivered; the
// refusal comes after them, and stays.
func TestDepthReaderDeliversWhatCameBefore(t *testing.T) {
	ok := `{"jsonrpc":"2.0","method":"a","params":{"s":"[[[["}}` + "\n"
	deep := strings.Repeat("[", nesting.MessageDepth+1)
	var kept atomic.Pointer[fault.Error]
	r := NewDepthReader(io.NopCloser(strings.NewReader(ok+ok+deep)), func(e *fault.Error) { kept.CompareAndSwap(nil, e) })
	got, err := io.ReadAll(r)
	if fault.CodeOf(err, "") != CodeMessageDepth || kept.Load() != err {
		t.Fatalf("err = %v, kept %v", err, kept.Load())
	}
	if want := ok + ok + deep[:nesting.MessageDepth]; string(got) != want {
		t.Fatalf("delivered %d bytes, want %d", len(got), len(want))
	}
	if n, err2 := r.Read(make([]byte, 8)); n != 0 || err2 != err {
		t.Fatalf("after the refusal: %d %v", n, err2)
	}
}
