package live

import (
	"context"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/relavium/relavium/host"
	"github.com/relavium/relavium/host/clientside"
)

// Roots is the host's roots; false before the host is open.
func (l *Adapter) Roots() ([]clientside.Root, bool) {
	if h := l.host(); h != nil {
		return h.Roots(), true
	}
	return nil, false
}

// SetRoots replaces the host's roots.
func (l *Adapter) SetRoots(dirs []string) error {
	h := l.host()
	if h == nil {
		return errors.New("no server connected yet")
	}
	return h.SetRoots(dirs)
}

// CallTimeout is the session's call timeout (the default before the host
// is open).
func (l *Adapter) CallTimeout() time.Duration {
	if h := l.host(); h != nil {
		return h.CallTimeout()
	}
	return host.DefaultCall
}

// SetCallTimeout sets the session's call timeout; false before the host is
// open.
func (l *Adapter) SetCallTimeout(d time.Duration) bool {
	h := l.host()
	if h == nil {
		return false
	}
	h.SetCallTimeout(d)
	return true
}

// OpenURL opens url in the person's browser: $BROWSER (its first entry;
// a %s in it is replaced by the url), else xdg-open, else open on macOS.
// The url is one argument, never a shell word; it was screened (https, or
// http on loopback) before anyone could ask to open it.
func (l *Adapter) OpenURL(ctx context.Context, url string) error {
	argv := opener(l.getenv, runtime.GOOS, url)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	return cmd.Run()
}

// opener is the command line that opens url.
func opener(getenv func(string) string, goos, url string) []string {
	if getenv != nil {
		if b, _, _ := strings.Cut(getenv("BROWSER"), ":"); strings.TrimSpace(b) != "" {
			argv := strings.Fields(b)
			for i, a := range argv {
				if strings.Contains(a, "%s") {
					argv[i] = strings.ReplaceAll(a, "%s", url)
					return argv
				}
			}
			return append(argv, url)
		}
	}
	if goos == "darwin" {
		return []string{"open", url}
	}
	return []string{"xdg-open", url}
}
