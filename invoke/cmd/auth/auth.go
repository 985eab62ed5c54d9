package auth

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/relavium/relavium/engine/sanitize"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/invoke/cli"
	"github.com/relavium/relavium/oauth"
	"github.com/relavium/relavium/session"
)

// AuthLogin is the data of `relavium auth login SERVER`.
type AuthLogin struct {
	Server   string         `json:"server"`
	SignedIn bool           `json:"signed_in"`
	Record   *oauth.Summary `json:"record,omitempty"`
}

// WriteHuman says what was stored (never a token).
func (a AuthLogin) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if !a.SignedIn {
		fmt.Fprintf(&b, "server %s answered without asking for a sign-in; nothing was stored\n", sanitize.Line(a.Server))
	} else if r := a.Record; r != nil {
		fmt.Fprintf(&b, "signed in to %s at %s\n", sanitize.Line(a.Server), sanitize.Line(r.Issuer))
		fmt.Fprintf(&b, "  scopes   %s\n", scopeText(r.Scopes))
		fmt.Fprintf(&b, "  expires  %s\n", expiryText(r.Expiry, r.Refresh))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RunAuthLogin is `relavium auth login`: sign a declared http server in
// (opens or prints the url, waits for the redirect, stores the tokens).
func RunAuthLogin(ctx context.Context, inv *cli.Invocation) (any, error) {
	name := inv.Args[0]
	servers, err := declaredServers(inv)
	if err != nil {
		return nil, err
	}
	opts := cli.SessionOptions(inv)
	s := session.New(opts, servers)
	in := oauth.Interactive{Prompt: authPrompt(inv)}
	res, err := s.Login(ctx, name, in)
	if err != nil {
		return nil, err
	}
	out := AuthLogin{Server: name, SignedIn: res.SignedIn}
	if res.SignedIn {
		if url := serverURL(inv, servers, name); url != "" {
			list, _ := oauth.NewStore(inv.Env.Home).List()
			for i := range list {
				if list[i].URL == url {
					out.Record = &list[i]
					break
				}
			}
		}
	}
	return out, nil
}

// authPrompt shows the authorization url on stderr (always: a remote shell
// copies it from there) and opens the browser: `auth login` is an explicit
// request to sign in, so it opens one even without a terminal ($BROWSER,
// else xdg-open/open), and waits for the redirect.
func authPrompt(inv *cli.Invocation) func(context.Context, oauth.Prompt) (func(), error) {
	return func(_ context.Context, p oauth.Prompt) (func(), error) {
		what := "sign in to"
		if p.StepUp {
			what = "sign in again (more scopes) to"
		}
		fmt.Fprintf(inv.Env.Stderr, "relavium: %s %s at %s", what, sanitize.Line(p.Server), sanitize.Line(p.AuthServer))
		if len(p.Scopes) > 0 {
			fmt.Fprintf(inv.Env.Stderr, " (scopes: %s)", sanitize.Line(strings.Join(p.Scopes, " ")))
		}
		fmt.Fprintf(inv.Env.Stderr, "\n  open this url in a browser:\n  %s\n", sanitize.Line(p.URL))
		stop, err := oauth.Browser{Getenv: inv.Env.Getenv}.Open(p.URL)
		if err != nil {
			fmt.Fprintf(inv.Env.Stderr, "  (no browser could be opened: %s; open the url yourself)\n", sanitize.Line(err.Error()))
		}
		fmt.Fprintf(inv.Env.Stderr, "  waiting for the browser to come back (up to %s; Ctrl-C cancels)…\n", oauth.DefaultWait)
		return stop, nil
	}
}

// AuthList is the data of `relavium auth ls`: every stored sign-in, newest
// first; never a token.
type AuthList struct {
	Dir     string          `json:"dir"`
	Records []oauth.Summary `json:"records"`
}

// WriteHuman prints one row per stored sign-in.
func (l AuthList) WriteHuman(w io.Writer) error {
	var b strings.Builder
	if len(l.Records) == 0 {
		fmt.Fprintf(&b, "no stored sign-ins in %s\n", l.Dir)
	}
	for _, r := range l.Records {
		if r.Unreadable != "" {
			fmt.Fprintf(&b, "unreadable record %s: %s\n  relavium auth logout SERVER removes it with its server's other sign-ins (or delete the file)\n",
				sanitize.Line(r.FileName), sanitize.Line(r.Unreadable))
			continue
		}
		fmt.Fprintf(&b, "%s  %s\n", sanitize.Line(r.Server), sanitize.Line(r.URL))
		fmt.Fprintf(&b, "  issuer   %s\n", sanitize.Line(r.Issuer))
		fmt.Fprintf(&b, "  scopes   %s\n", scopeText(r.Scopes))
		fmt.Fprintf(&b, "  expires  %s\n", expiryText(r.Expiry, r.Refresh))
		if len(r.Wanted) > 0 {
			fmt.Fprintf(&b, "  wanted   %s (a step-up no sign-in has granted yet: relavium auth login %s)\n", scopeText(r.Wanted), sanitize.Line(r.Server))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// RunAuthList is `relavium auth ls`: list stored sign-ins: server, issuer,
// scopes, expiry (never tokens).
func RunAuthList(_ context.Context, inv *cli.Invocation) (any, error) {
	st := oauth.NewStore(inv.Env.Home)
	list, err := st.List()
	if err != nil {
		return nil, err
	}
	if list == nil {
		list = []oauth.Summary{}
	}
	return AuthList{Dir: st.Dir, Records: list}, nil
}

// AuthLogout is the data of `relavium auth logout SERVER`.
type AuthLogout struct {
	Server  string `json:"server"`
	Removed int    `json:"removed"`
}

// WriteHuman says how many sign-ins were forgotten.
func (a AuthLogout) WriteHuman(w io.Writer) error {
	_, err := fmt.Fprintf(w, "removed %d stored sign-in(s) of %s\n", a.Removed, sanitize.Line(a.Server))
	return err
}

// RunAuthLogout forgets the server's stored sign-ins: by its declared url,
// or, for a server no longer declared, by the name it was signed in under.
func RunAuthLogout(_ context.Context, inv *cli.Invocation) (any, error) {
	name := inv.Args[0]
	st := oauth.NewStore(inv.Env.Home)
	url := ""
	if servers, err := declaredServers(inv); err == nil {
		url = serverURL(inv, servers, name)
	}
	if url == "" {
		list, err := st.List()
		if err != nil {
			return nil, err
		}
		for _, r := range list {
			if r.Server == name {
				url = r.URL
				break
			}
		}
	}
	if url == "" {
		e := &oauth.Error{}
		e.ErrCode, e.Exit, e.Msg = oauth.CodeNoServer, 2, "no declared http server and no stored sign-in is named "+name
		return nil, e
	}
	n, err := st.Remove(url)
	if err != nil {
		return nil, err
	}
	return AuthLogout{Server: name, Removed: n}, nil
}

func declaredServers(inv *cli.Invocation) ([]config.Server, error) {
	cfg, err := config.LoadFrom(inv.Env.Home, inv.Global.Project, config.Sources{LookupEnv: inv.Env.LookupEnv})
	if err != nil {
		return nil, err
	}
	return cfg.Declared(inv.Global.Agent)
}

func serverURL(inv *cli.Invocation, servers []config.Server, name string) string {
	for _, s := range servers {
		if s.Name == name {
			return session.SignInURL(s, inv.Env.LookupEnv)
		}
	}
	return ""
}

func scopeText(s []string) string {
	if len(s) == 0 {
		return "(none named)"
	}
	return sanitize.Line(strings.Join(s, " "))
}

func expiryText(t time.Time, refresh bool) string {
	out := "no expiry given"
	if !t.IsZero() {
		out = t.UTC().Format(time.RFC3339)
	}
	if refresh {
		out += " (refresh token held)"
	}
	return out
}
