package wire

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Both directions of a newline-delimited stream are recorded in order,
// a response paired with its request (method, round-trip time), secrets
// redacted (the connection's own and credential-named members), and a
// subscriber sees what the hub keeps; the file is written at Close.
func TestRecorderPairsRedactsAndWrites(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(time.Millisecond); return clock }
	path := filepath.Join(t.TempDir(), "rec.ndjson")
	hub := NewHub(path, now)
	var seen []Record
	_, cancel := hub.Subscribe(func(r Record) { seen = append(seen, r) })
	defer cancel()
	rec := hub.Server("s", func(s string) string { return strings.ReplaceAll(s, "hunter2", "{{secrets.PW}}") })

	var sink strings.Builder
	w := rec.LineWriter(nopCloser{&sink})
	_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"login","arguments":{"user":"u","password":"p4ss","note":"hunter2"},"_meta":{"progressToken":"k"}}}`+"\n")
	r := rec.Lines(io.NopCloser(strings.NewReader(`{"jsonrpc":"2.0","id":7,"result":{"content":[],"access_token":"abc"}}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/message","params":{}}` + "\n")))
	if _, err := io.ReadAll(r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sink.String(), "p4ss") {
		t.Fatal("the tap changed what was written")
	}
	if len(seen) != 3 || seen[1].Method != "tools/call" || seen[1].RTTMicros != 1000 || seen[1].Kind != KindResponse || seen[2].Kind != KindNotification {
		t.Fatalf("records %+v", seen)
	}
	for _, r := range seen {
		m := string(r.Message)
		if strings.Contains(m, "p4ss") || strings.Contains(m, "hunter2") || strings.Contains(m, "abc") {
			t.Errorf("a secret was recorded: %s", m)
		}
	}
	if !strings.Contains(string(seen[0].Message), `"progressToken":"k"`) || !strings.Contains(string(seen[0].Message), "{{secrets.PW}}") {
		t.Errorf("request %s", seen[0].Message)
	}
	if err := hub.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Fatalf("file has %d lines: %s", n, data)
	}
	var first Record
	if err := json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &first); err != nil || first.Seq != 1 || first.Dir != Send {
		t.Fatalf("first line %+v %v", first, err)
	}
}

// An oversize line is recorded by size alone; a nil hub records nothing
// and its taps are the streams themselves.
func TestRecorderBounds(t *testing.T) {
	hub := NewHub("", nil)
	rec := hub.Server("s", nil)
	big := `{"jsonrpc":"2.0","id":1,"result":{"x":"` + strings.Repeat("a", MaxMessage) + `"}}` + "\n"
	if _, err := io.ReadAll(rec.Lines(io.NopCloser(strings.NewReader(big)))); err != nil {
		t.Fatal(err)
	}
	got := hub.Recent()
	if len(got) != 1 || !got[0].Truncated || got[0].Message != nil || got[0].Size != len(big)-1 {
		t.Fatalf("oversize %+v", got[0].Size)
	}
	for i := 0; i < recentRecords+5; i++ {
		rec.Observe(Recv, []byte(`{"jsonrpc":"2.0","method":"m","params":{}}`))
	}
	if r := hub.Recent(); len(r) != recentRecords || r[len(r)-1].Seq != int64(recentRecords+6) {
		t.Fatalf("ring: %d, last %d", len(r), r[len(r)-1].Seq)
	}
	var none *Hub
	rc := io.NopCloser(strings.NewReader("x"))
	if none.Server("s", nil).Lines(rc) != rc || none.Close() != nil {
		t.Fatal("a nil hub taps")
	}
}

// The hub holds at most 16 MiB of messages for a late subscriber, however
// large the messages: the oldest go first.
func TestRecentIsBoundedByBytes(t *testing.T) {
	hub := NewHub("", nil)
	rec := hub.Server("s", nil)
	msg := []byte(`{"jsonrpc":"2.0","method":"m","params":{"x":"` + strings.Repeat("a", 3<<20) + `"}}`)
	for range 12 {
		rec.Observe(Recv, msg)
	}
	got := hub.Recent()
	held := 0
	for _, r := range got {
		held += len(r.Message)
	}
	if held > recentBytes || len(got) == 0 || got[len(got)-1].Seq != 12 {
		t.Fatalf("%d records holding %d bytes, last %d", len(got), held, got[len(got)-1].Seq)
	}
}
