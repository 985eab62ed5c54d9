package host

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/sandbox"
)

// sandboxedServer is stdioServer with a sandbox declaration.
func sandboxedServer(t *testing.T, name string, decl sandbox.Decl) Endpoint {
	t.Helper()
	r, err := consent.Resolve(consent.Declaration{Name: name, Command: hostileBin, Args: []string{"-mode", "ok"}, Cwd: t.TempDir(), Sandbox: &decl}, "")
	if err != nil {
		t.Fatal(err)
	}
	return Endpoint{Name: name, Transport: TransportStdio, Stdio: r}
}

// Where nothing can confine the server (here: no launcher is given),
// sandbox = "required" refuses to start it (E340), and a server that does
// not require it starts and says it is not sandboxed.
func TestSandboxRequiredRefusesWhereNothingConfines(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := Start(ctx, Options{Servers: []Endpoint{sandboxedServer(t, "req", sandbox.Decl{Required: true})}})
	if err == nil || !strings.Contains(err.Error(), string(sandbox.CodeRequired)) || !strings.Contains(err.Error(), "not started") {
		t.Fatalf("required without a launcher: %v", err)
	}
	rec := &recorder{}
	h := startHost(t, Options{Emitter: rec, Servers: []Endpoint{sandboxedServer(t, "plain", sandbox.Decl{})}})
	st := h.Servers()[0]
	if st.State != "ready" || st.Sandbox == nil || st.Sandbox.Sandboxed || !strings.HasPrefix(st.Sandbox.Reason, "not sandboxed: ") {
		t.Errorf("unconfined server's status: %+v %+v", st, st.Sandbox)
	}
	// Every mcp:server event (and so the session export) carries the
	// effective policy itself, not only its mode.
	for _, e := range rec.ofType(engine.EventServer) {
		d := e.Data.(engine.ServerData)
		p, err := sandbox.Parse(d.SandboxPolicy)
		if err != nil || !p.Enabled || p.Network != st.Sandbox.Policy.Network || string(d.SandboxPolicy) != string(st.Sandbox.Policy.Marshal()) {
			t.Errorf("%s event's sandbox_policy %s (%v), want %s", d.State, d.SandboxPolicy, err, st.Sandbox.Policy.Marshal())
		}
	}
}
