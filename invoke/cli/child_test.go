package cli

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestChildDeadlineEndsBeforeTheInvokersKill(t *testing.T) {
	now := time.Unix(1000, 0)
	env := func(v string) *Env {
		return &Env{LookupEnv: func(n string) (string, bool) {
			if n == EnvDeadlineMS && v != "" {
				return v, true
			}
			return "", false
		}}
	}
	for v, want := range map[string]time.Duration{
		"60000": 58 * time.Second,        // 2 s margin at most
		"4000":  3200 * time.Millisecond, // a fifth of the time left
		"":      0,                       // no deadline given: none set
		"-5":    0,
		"soon":  0,
	} {
		ctx, cancel := childDeadline(context.Background(), env(v), now)
		d, ok := ctx.Deadline()
		switch {
		case want == 0 && ok:
			t.Errorf("%q: a deadline %v was set", v, d)
		case want != 0 && (!ok || d.Sub(now) != want):
			t.Errorf("%q: deadline in %v, want %v", v, d.Sub(now), want)
		}
		cancel()
	}
	// Once it passes, the commands see why they were stopped.
	ctx, cancel := childDeadline(context.Background(), env("1000"), time.Now().Add(-time.Hour))
	defer cancel()
	<-ctx.Done()
	if !errors.Is(context.Cause(ctx), errRequestDeadline) {
		t.Errorf("cause %v", context.Cause(ctx))
	}
}
