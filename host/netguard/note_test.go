package netguard

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/fault"
)

// noteSink collects what WithRefusalNote reports.
type noteSink struct {
	mu  sync.Mutex
	got []*Error
}

func (s *noteSink) note(e *Error) {
	s.mu.Lock()
	s.got = append(s.got, e)
	s.mu.Unlock()
}

func (s *noteSink) codes() []fault.Code {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []fault.Code
	for _, e := range s.got {
		out = append(out, e.Code())
	}
	return out
}

// A refusal met by one request reaches the observer of that request's
// context, and no other: the message bound while reading a response, a
// redirect, and a dial refusal.
func TestRefusalNoteBelongsToItsRequest(t *testing.T) {
	srv := newCountingServer(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/big":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(strings.Repeat("x", MessageLimit+1)))
		case "/moved":
			http.Redirect(w, r, "/big", http.StatusFound)
		default:
			_, _ = w.Write([]byte("{}"))
		}
	})
	g := New()
	tg := localTarget(t, g, srv.URL, "/", TransportHTTP)
	client := g.HTTPClient(tg)
	defer client.CloseIdleConnections()
	do := func(path string, sink *noteSink) error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if sink != nil {
			ctx = WithRefusalNote(ctx, sink.note)
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	quiet, big, moved := &noteSink{}, &noteSink{}, &noteSink{}
	if err := do("/ok", quiet); err != nil {
		t.Fatal(err)
	}
	if err := do("/big", big); !isCode(err, CodeMessageBound) {
		t.Fatalf("big: %v", err)
	}
	if err := do("/moved", moved); !isCode(err, CodeRedirect) {
		t.Fatalf("moved: %v", err)
	}
	if err := do("/ok", quiet); err != nil {
		t.Fatal(err)
	}
	if got := quiet.codes(); len(got) != 0 {
		t.Errorf("a request that was not refused was told of %v", got)
	}
	if got := big.codes(); len(got) != 1 || got[0] != CodeMessageBound {
		t.Errorf("big noted %v", got)
	}
	if got := moved.codes(); len(got) != 1 || got[0] != CodeRedirect {
		t.Errorf("moved noted %v", got)
	}

	// A dial refusal reaches the request that dialled.
	fr := newFakeResolver()
	fr.set("flip.example", "10.0.0.9")
	g2 := New(WithResolver(fr), WithDialer(&recordingDialer{}))
	tg2, err := g2.Admit("https://flip.example/mcp", TransportHTTP, false)
	if err != nil {
		t.Fatal(err)
	}
	dialSink := &noteSink{}
	req, _ := http.NewRequestWithContext(WithRefusalNote(context.Background(), dialSink.note), http.MethodGet, "https://flip.example/mcp", nil)
	if _, err := g2.HTTPClient(tg2).Do(req); !isCode(err, CodePrivateAddress) {
		t.Fatalf("dial: %v", err)
	}
	if got := dialSink.codes(); len(got) == 0 || got[0] != CodePrivateAddress {
		t.Errorf("dial noted %v", got)
	}
}
