package main

import (
	"slices"
	"testing"

	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/themes"
)

// The --theme flag's closed list (invoke may not import themes) is the
// themes package's list: a theme added there is accepted on every command.
func TestThemeFlagNamesEveryTheme(t *testing.T) {
	for _, f := range invoke.Commands().Globals {
		if f.Name == "theme" {
			if !slices.Equal(f.Enum, themes.Names()) {
				t.Fatalf("--theme accepts %v; the themes are %v", f.Enum, themes.Names())
			}
			return
		}
	}
	t.Fatal("no global --theme flag")
}
