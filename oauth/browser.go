package oauth

import (
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// Browser opens the authorization url for the person. It is $BROWSER when
// set (the first of its colon-separated commands; a %s in it is replaced by
// the url, else the url is its last argument), else xdg-open (open on
// macOS). The url is always also shown by the caller, so a remote shell can
// copy it: opening is a convenience, never the only way.
type Browser struct {
	// Getenv reads $BROWSER (the face passes its environment in).
	Getenv func(string) string
}

// Open starts the browser on raw and returns a function that waits (at
// most a few seconds) for the opener to exit, killing it after that: no
// child outlives the sign-in that started it.
func (b Browser) Open(raw string) (stop func(), err error) {
	argv := b.command(raw)
	if len(argv) == 0 {
		return func() {}, errors.New("no browser opener ($BROWSER unset and no xdg-open/open)")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return func() {}, err
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	return func() {
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	}, nil
}

func (b Browser) command(raw string) []string {
	if b.Getenv != nil {
		if env := b.Getenv("BROWSER"); strings.TrimSpace(env) != "" {
			first, _, _ := strings.Cut(env, ":")
			words := strings.Fields(first)
			replaced := false
			for i, w := range words {
				if strings.Contains(w, "%s") {
					words[i] = strings.ReplaceAll(w, "%s", raw)
					replaced = true
				}
			}
			if !replaced {
				words = append(words, raw)
			}
			return words
		}
	}
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	if p, err := exec.LookPath(name); err == nil {
		return []string{p, raw}
	}
	return nil
}
