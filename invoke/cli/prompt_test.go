package cli

import "testing"

func TestCanPrompt(t *testing.T) {
	env := func(kv ...string) func(string) (string, bool) {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
	}
	cases := []struct {
		name          string
		stdin, stdout bool
		json          bool
		lookup        func(string) (string, bool)
		want          bool
	}{
		{"tty both, no json, no CI", true, true, false, env(), true},
		{"stdin not a tty", false, true, false, env(), false},
		{"stdout not a tty", true, false, false, env(), false},
		{"neither tty", false, false, false, env(), false},
		{"json", true, true, true, env(), false},
		{"CI=true", true, true, false, env("CI", "true"), false},
		{"CI set but empty still means CI", true, true, false, env("CI", ""), false},
		{"other vars do not matter", true, true, false, env("TERM", "xterm"), true},
		{"nil lookup", true, true, false, nil, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := CanPrompt(c.stdin, c.stdout, c.json, c.lookup); got != c.want {
				t.Fatalf("CanPrompt(%v,%v,%v) = %v, want %v", c.stdin, c.stdout, c.json, got, c.want)
			}
		})
	}
}
