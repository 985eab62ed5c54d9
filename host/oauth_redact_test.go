package host

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/netguard"
	"github.com/relavium/relavium/internal/echoserver"
	"github.com/relavium/relavium/redact"
)

// staticOAuth is a signed-in OAuth handler holding one token (what
// oauth.Handler looks like to host: a token source and Hidden).
type staticOAuth struct{ token string }

func (s staticOAuth) TokenSource(context.Context) (oauth2.TokenSource, error) {
	return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: s.token, TokenType: "Bearer"}), nil
}
func (s staticOAuth) Authorize(context.Context, *http.Request, *http.Response) error {
	return errors.New("no sign-in in this test")
}
func (s staticOAuth) Hidden() []string { return []string{s.token} }

// A server that repeats the OAuth access token it was sent — in
// serverInfo, a log line, its result's text and structured content, an
// error — has it replaced everywhere host hands it on, and the session's
// one redactor knows it for every exit.
func TestOAuthTokenEchoedByAServerIsRedacted(t *testing.T) {
	const token = "oauth-access-5d1e9b7c3a"
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		return echoserver.New(echoserver.FromRequest(r, "Authorization"))
	}, nil))
	defer srv.Close()
	g := netguard.New()
	ep := networkServer(t, g, "o", TransportHTTP, srv.URL+"/mcp")
	ep.OAuth = staticOAuth{token: token}
	rec := &recorder{}
	set := redact.New()
	h := startHost(t, Options{Guard: g, Emitter: rec, Redact: set, Servers: []Endpoint{ep}})
	res, err := callTool(t, h, context.Background(), "mcp_o_echo", `{}`, engine.CallOptions{OnProgress: func(engine.Progress) {}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	shown := []string{string(b), res.Text(), string(res.Structured), rec.dump(t)}
	_, ferr := callTool(t, h, context.Background(), "mcp_o_fail", `{}`, engine.CallOptions{})
	if ferr != nil {
		shown = append(shown, ferr.Error())
	}
	for _, st := range h.Servers() {
		shown = append(shown, st.ServerName, st.ServerVersion)
	}
	all := strings.Join(shown, "\n")
	if strings.Contains(all, token) {
		t.Fatalf("the token is shown:\n%s", all)
	}
	if !strings.Contains(res.Text(), "result Bearer [REDACTED]") || !strings.Contains(string(res.Structured), "[REDACTED]") {
		t.Errorf("the echo was not reached: %s %s", res.Text(), res.Structured)
	}
	if set.Text("x "+token) != "x [REDACTED]" {
		t.Error("the session's redactor does not know the token")
	}
	_ = h.Close()
}
