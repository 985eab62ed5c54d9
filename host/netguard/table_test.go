package netguard

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// urlCase is one row of testdata/netguard/urls.json.
type urlCase struct {
	URL       string   `json:"url"`
	Transport string   `json:"transport"`
	Local     bool     `json:"local"`
	Kind      string   `json:"kind"`  // allow | allow-opt-in | refuse
	Code      string   `json:"code"`  // the refusal (without the opt-in, for allow-opt-in)
	Stage     string   `json:"stage"` // admit | dial
	Dial      []string `json:"dial"`
}

type urlTable struct {
	DNS   map[string]json.RawMessage `json:"dns"`
	Cases []urlCase                  `json:"cases"`
}

func loadURLTable(t *testing.T) (urlTable, *fakeResolver) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "netguard", "urls.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tab urlTable
	if err := json.Unmarshal(raw, &tab); err != nil {
		t.Fatal(err)
	}
	res := newFakeResolver()
	for host, v := range tab.DNS {
		var addrs []string
		if err := json.Unmarshal(v, &addrs); err != nil {
			var failure string
			if err2 := json.Unmarshal(v, &failure); err2 != nil {
				t.Fatalf("dns %s: %v", host, err)
			}
			res.fail[host] = failure
			continue
		}
		res.set(host, addrs...)
	}
	return tab, res
}

func TestURLTable(t *testing.T) {
	tab, res := loadURLTable(t)
	if len(tab.Cases) < 150 {
		t.Fatalf("the table has %d urls, want at least 150", len(tab.Cases))
	}
	kinds := map[string]int{}
	for i, c := range tab.Cases {
		kinds[c.Kind]++
		if c.Transport == "" {
			c.Transport = TransportHTTP
		}
		name := fmt.Sprintf("%03d %s %s local=%v", i, c.Transport, c.URL, c.Local)
		t.Run(name, func(t *testing.T) {
			switch c.Kind {
			case "allow":
				expectDialled(t, res, c, c.Local)
			case "allow-opt-in":
				if c.Local {
					t.Fatal("allow-opt-in rows are stated without the opt-in")
				}
				expectRefused(t, res, c, false)
				expectDialled(t, res, c, true)
			case "refuse":
				expectRefused(t, res, c, c.Local)
			default:
				t.Fatalf("unknown kind %q", c.Kind)
			}
		})
	}
	for _, k := range []string{"allow", "allow-opt-in", "refuse"} {
		if kinds[k] == 0 {
			t.Errorf("the table has no %q rows", k)
		}
	}
}

// connect runs the case through the guard as host would: the http client for
// http/sse, the websocket dialer for websocket.
func connect(g *Guard, tg *Target) error {
	ctx := context.Background()
	if tg.Transport() == TransportWebsocket {
		conn, _, err := g.DialWebsocket(ctx, tg, nil)
		if conn != nil {
			conn.CloseNow()
		}
		return err
	}
	client := g.HTTPClient(tg)
	defer client.CloseIdleConnections()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, tg.URL(), nil)
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if resp != nil {
		resp.Body.Close()
	}
	return err
}

func expectDialled(t *testing.T, res *fakeResolver, c urlCase, local bool) {
	t.Helper()
	if err := AdmitURL(c.URL, c.Transport, local); err != nil {
		t.Fatalf("AdmitURL(local=%v) = %v, want admitted", local, err)
	}
	rec := &recordingDialer{}
	g := New(WithResolver(res), WithDialer(rec))
	tg, err := g.Admit(c.URL, c.Transport, local)
	if err != nil {
		t.Fatalf("Admit(local=%v) = %v, want admitted", local, err)
	}
	err = connect(g, tg)
	if !errors.Is(err, errFakeDial) {
		t.Fatalf("connect(local=%v) = %v, want the fake dialer's error", local, err)
	}
	if _, ok := AsRefusal(err); ok {
		t.Fatalf("an admitted dial reported a refusal: %v", err)
	}
	if r := tg.Refusal(); r != nil {
		t.Fatalf("target recorded a refusal: %v", r)
	}
	if got := rec.recorded(); !slices.Equal(got, c.Dial) {
		t.Fatalf("dialled %q, want %q", got, c.Dial)
	}
}

func expectRefused(t *testing.T, res *fakeResolver, c urlCase, local bool) {
	t.Helper()
	admitErr := AdmitURL(c.URL, c.Transport, local)
	rec := &recordingDialer{}
	g := New(WithResolver(res), WithDialer(rec))
	tg, err := g.Admit(c.URL, c.Transport, local)
	if (admitErr == nil) != (err == nil) {
		t.Fatalf("AdmitURL and Admit disagree: %v vs %v", admitErr, err)
	}
	wantExit := 2
	switch c.Stage {
	case "admit":
		if err == nil {
			t.Fatalf("admitted (local=%v), want %s at admission", local, c.Code)
		}
	case "dial":
		if err != nil {
			t.Fatalf("Admit(local=%v) = %v, want admitted and refused at the dial", local, err)
		}
		err = connect(g, tg)
		wantExit = 1
		if r := tg.Refusal(); r == nil || string(r.Code()) != c.Code {
			t.Errorf("Target.Refusal() = %v, want %s", r, c.Code)
		}
	default:
		t.Fatalf("unknown stage %q", c.Stage)
	}
	r, ok := AsRefusal(err)
	if !ok {
		t.Fatalf("error %v is not a refusal", err)
	}
	if string(r.Code()) != c.Code {
		t.Fatalf("refused with %s (%v), want %s", r.Code(), r, c.Code)
	}
	if r.ExitCode() != wantExit {
		t.Errorf("exit code %d, want %d", r.ExitCode(), wantExit)
	}
	if r.Reason == "" || r.Msg == "" {
		t.Errorf("refusal without reason or message: %+v", r)
	}
	if errors.Is(err, errFakeDial) {
		t.Errorf("a refused target reached the dialer: %v", err)
	}
	if got := rec.recorded(); len(got) != 0 {
		t.Fatalf("a refused target was dialled: %q", got)
	}
}
