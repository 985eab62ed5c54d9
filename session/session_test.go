package session

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/netguard"
)

// askerStub answers every consent request with answer and keeps what it
// was asked and told.
type askerStub struct {
	answer   Answer
	mu       sync.Mutex
	asked    []string
	recorded []Answer
}

func (a *askerStub) Consent(_ context.Context, d consent.Decision) (Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, d.Server.Name)
	return a.answer, nil
}

func (a *askerStub) Recorded(_ consent.Decision, ans Answer) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recorded = append(a.recorded, ans)
}

func (a *askerStub) ConfirmCall(context.Context, engine.ToolDef, bool) (CallAnswer, error) {
	return CallRefused, nil
}

func (a *askerStub) Bind(_ context.Context, d consent.BindingDecision) (Answer, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.asked = append(a.asked, d.Binding.Flag())
	return a.answer, nil
}

func (a *askerStub) BindRecorded(_ consent.BindingDecision, ans Answer) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.recorded = append(a.recorded, ans)
}

// recorder keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []engine.Event
}

func (r *recorder) Emit(e engine.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) states(server string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.events {
		if d, ok := e.Data.(engine.ServerData); ok && e.Type == engine.EventServer && d.Server == server {
			out = append(out, d.State)
		}
	}
	return out
}

func testOptions(t *testing.T) Options {
	return Options{
		Home:      t.TempDir(),
		LookupEnv: func(k string) (string, bool) { v, ok := os.LookupEnv(k); return v, ok },
		Now:       time.Now,
		Version:   "test",
	}
}

func stdio(t *testing.T, name string) config.Server {
	return config.Server{Name: name, Transport: host.TransportStdio, Command: hostileBin,
		Args: []string{"-mode", "ok"}, Dir: t.TempDir()}
}

func codeOf(err error) fault.Code { return fault.CodeOf(err, "") }

// With no one to ask, a server needing consent fails the start (E301,
// exit 2) before anything is spawned.
func TestPendingConsentWithNoAskerSpawnsNothing(t *testing.T) {
	rec := &recorder{}
	opts := testOptions(t)
	opts.Events = rec
	_, err := New(opts, []config.Server{stdio(t, "a")}).Start(context.Background(), nil)
	var pe *consent.PendingError
	if !errors.As(err, &pe) || codeOf(err) != consent.CodeConsentRequired {
		t.Fatalf("start = %v, want a PendingError", err)
	}
	if !pe.Undeclared {
		t.Error("a server with no source position is not marked undeclared")
	}
	if got := rec.states("a"); strings.Join(got, ",") != engine.StateResolving+","+engine.StateNeedsConsent {
		t.Errorf("states = %v", got)
	}
}

// The Asker's answer decides: approve once connects (and the answer holds
// for the session's next start without asking again), deny reports the
// server failed with E308 and starts nothing.
func TestAskerAnswersConsent(t *testing.T) {
	opts := testOptions(t)
	ask := &askerStub{answer: ApproveOnce}
	opts.Asker = ask
	s := New(opts, []config.Server{stdio(t, "a")})
	h, err := s.Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := h.Lookup("mcp_a_echo"); !ok {
		t.Errorf("a's tools not admitted: %v", h.Tools())
	}
	_ = h.Close()
	h, err = s.Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = h.Close()
	if len(ask.asked) != 1 || len(ask.recorded) != 1 || ask.recorded[0] != ApproveOnce {
		t.Errorf("asked %v, recorded %v: approve once should hold for the session", ask.asked, ask.recorded)
	}

	rec := &recorder{}
	opts = testOptions(t)
	opts.Asker, opts.Events = &askerStub{answer: Deny}, rec
	h, err = New(opts, []config.Server{stdio(t, "b")}).Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	st := h.Servers()
	if len(st) != 1 || st[0].ErrorCode != consent.CodeDenied || len(h.PIDs()) != 0 {
		t.Errorf("denied server: %+v, pids %v", st, h.PIDs())
	}
	if got := rec.states("b"); got[len(got)-1] != engine.StateFailed {
		t.Errorf("states = %v", got)
	}
}

// Remember writes a grant: a new session starts the server unasked.
func TestRememberedGrantHoldsAcrossSessions(t *testing.T) {
	opts := testOptions(t)
	opts.Asker = &askerStub{answer: ApproveRemember}
	srv := stdio(t, "a")
	h, err := New(opts, []config.Server{srv}).Start(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = h.Close()
	opts.Asker = nil
	h, err = New(opts, []config.Server{srv}).Start(context.Background(), nil)
	if err != nil {
		t.Fatalf("a remembered grant did not hold: %v", err)
	}
	_ = h.Close()
}

// A declaration that does not resolve fails with consent's code, prefixed
// with where it is declared; a server not selected needs nothing.
func TestUnresolvedDeclarationNamesItsSource(t *testing.T) {
	opts := testOptions(t)
	bad := config.Server{Name: "bad", Transport: host.TransportStdio, Command: "no-such-command-relavium", Dir: t.TempDir(),
		Pos: config.Pos{File: "relavium.toml", Line: 3, Col: 1}}
	_, err := New(opts, []config.Server{bad}).Start(context.Background(), nil)
	if err == nil || !strings.HasPrefix(err.Error(), "relavium.toml:3:1: ") || codeOf(err) == "" {
		t.Fatalf("start = %v (code %q), want the source position and consent's code", err, codeOf(err))
	}
	if m, ok := err.(interface{ Message() string }); !ok || !strings.HasPrefix(m.Message(), "relavium.toml:3:1: ") || strings.Contains(m.Message(), string(codeOf(err))) {
		t.Errorf("message = %q", m.Message())
	}
	opts.Asker = &askerStub{answer: ApproveOnce}
	h, err := New(opts, []config.Server{bad, stdio(t, "ok")}).Start(context.Background(), func(n string) bool { return n == "ok" })
	if err != nil {
		t.Fatalf("an unselected bad declaration failed the start: %v", err)
	}
	_ = h.Close()
}

// The guard refuses a loopback url of the ad-hoc server with the flag as
// the remedy; a declared one keeps the config field's.
func TestAdhocRefusalNamesTheFlag(t *testing.T) {
	opts := testOptions(t)
	opts.AdhocName = "adhoc"
	url := config.Server{Name: "adhoc", Transport: host.TransportHTTP, URL: "http://127.0.0.1:1/mcp"}
	_, err := New(opts, []config.Server{url}).Start(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error()+remedyOf(err), "--allow-local-endpoint") {
		t.Errorf("ad-hoc refusal = %v (%s)", err, remedyOf(err))
	}
	url.Name, url.Pos = "declared", config.Pos{File: "relavium.toml", Line: 1, Col: 1}
	_, err = New(opts, []config.Server{url}).Start(context.Background(), nil)
	if err == nil || strings.Contains(err.Error()+remedyOf(err), "--allow-local-endpoint") || !strings.HasPrefix(err.Error(), "relavium.toml:1:1: ") {
		t.Errorf("declared refusal = %v (%s)", err, remedyOf(err))
	}
}

func remedyOf(err error) string {
	var d interface{ ErrorData() any }
	if errors.As(err, &d) {
		if nd, ok := d.ErrorData().(netguard.Data); ok {
			return nd.Remedy
		}
	}
	return ""
}
