package live

import (
	"context"

	"github.com/relavium/relavium/oauth"
)

// SignIn is the live backend's sign-in: the session core's login, the
// browser opened (the workbench runs on a terminal, a person at it) and
// the url handed to the model to show.
func (l *Adapter) SignIn(ctx context.Context, server string, shown func(oauth.Prompt)) error {
	in := oauth.Interactive{Prompt: func(_ context.Context, p oauth.Prompt) (func(), error) {
		stop, _ := l.core.Browser().Open(p.URL)
		shown(p)
		return stop, nil
	}}
	_, err := l.core.Login(ctx, server, in)
	return err
}
