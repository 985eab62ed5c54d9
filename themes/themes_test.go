package themes

import (
	"errors"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestChoosePrecedence(t *testing.T) {
	cases := []struct {
		flag, env, config, noColor string
		want                       Choice
	}{
		{"", "", "", "", Choice{Auto, "default"}},
		{"", "", "", "1", Choice{Mono, "NO_COLOR"}},
		{"", "", "light", "1", Choice{Light, "config"}},
		{"", "dark", "light", "", Choice{Dark, "RELAVIUM_THEME"}},
		{"high-contrast", "dark", "light", "1", Choice{HighContrast, "--theme"}},
		{"mono", "", "", "", Choice{Mono, "--theme"}},
		{"auto", "", "", "1", Choice{Auto, "--theme"}},
	}
	for _, c := range cases {
		got, err := Choose(c.flag, c.env, c.config, c.noColor)
		if err != nil || got != c.want {
			t.Errorf("Choose(%q,%q,%q,%q) = %+v, %v; want %+v", c.flag, c.env, c.config, c.noColor, got, err, c.want)
		}
	}
}

func TestUnknownThemeNamesItsSource(t *testing.T) {
	for _, c := range []struct{ flag, env, config, source string }{
		{"solarized", "", "", "--theme"},
		{"", "Dark", "", "RELAVIUM_THEME"},
		{"", "", "neon", "config"},
	} {
		_, err := Choose(c.flag, c.env, c.config, "")
		var e *Error
		if !errors.As(err, &e) || e.Code() != CodeUnknownTheme || e.ExitCode() != 2 || !strings.Contains(e.Message(), " from "+c.source+":") {
			t.Fatalf("Choose(%q,%q,%q): %v", c.flag, c.env, c.config, err)
		}
		if !strings.Contains(e.Message(), "auto, dark, light, high-contrast, mono") {
			t.Fatalf("message does not list the themes: %s", e.Message())
		}
	}
}

func TestEveryThemeFillsEveryRole(t *testing.T) {
	for _, name := range Names() {
		p, ok := ByName(name)
		if !ok || p.Name != name {
			t.Fatalf("ByName(%q) = %v", name, ok)
		}
		v := reflect.ValueOf(p)
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.Type() == reflect.TypeOf((*lipgloss.TerminalColor)(nil)).Elem() && f.IsNil() {
				t.Errorf("theme %s leaves %s unset", name, v.Type().Field(i).Name)
			}
		}
	}
	if _, ok := ByName("nope"); ok {
		t.Fatal("an unknown theme resolved")
	}
}

func render(profile termenv.Profile, dark bool, theme string, f func(*Styles) string) string {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(profile)
	r.SetHasDarkBackground(dark)
	p, _ := ByName(theme)
	return f(NewStyles(r, p))
}

func TestMonoDrawsNoColour(t *testing.T) {
	out := render(termenv.TrueColor, true, Mono, func(s *Styles) string {
		return s.Error.Render("x") + s.DiffAdd.Render("y") + s.Selected.Render("z") + s.BadgeDestructive.Render("w")
	})
	// bold (1), reverse (7) and resets only: no colour parameter at all.
	colour := regexp.MustCompile(`\x1b\[(?:[0-9]+;)*(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9]+)*m`)
	if colour.MatchString(out) {
		t.Fatalf("mono drew colour: %q", out)
	}
	if dark := render(termenv.TrueColor, true, Dark, func(s *Styles) string { return s.Error.Render("x") }); !colour.MatchString(dark) {
		t.Fatalf("the colour check does not see the dark theme's colour: %q", dark)
	}
	if !strings.Contains(out, "\x1b[7m") || !strings.Contains(out, "\x1b[1m") {
		t.Fatalf("mono lost its emphasis (reverse selection, bold errors): %q", out)
	}
}

func TestAdaptiveFollowsTheBackground(t *testing.T) {
	f := func(s *Styles) string { return s.Error.Render("x") }
	dark := render(termenv.TrueColor, true, Auto, f)
	light := render(termenv.TrueColor, false, Auto, f)
	wantDark := render(termenv.TrueColor, true, Dark, f)
	wantLight := render(termenv.TrueColor, false, Light, f)
	if dark != wantDark || light != wantLight || dark == light {
		t.Fatalf("auto: dark %q (want %q), light %q (want %q)", dark, wantDark, light, wantLight)
	}
}

func TestDiffColoursDiffer(t *testing.T) {
	for _, name := range []string{Auto, Dark, Light, HighContrast} {
		add := render(termenv.ANSI256, true, name, func(s *Styles) string { return s.DiffAdd.Render("+") })
		del := render(termenv.ANSI256, true, name, func(s *Styles) string { return s.DiffDel.Render("-") })
		if add == "+" || del == "-" || strings.TrimSuffix(add, "+") == strings.TrimSuffix(del, "-") {
			t.Errorf("%s: diff add %q and del %q are not distinct colours", name, add, del)
		}
	}
}

func TestLogLevelsAndProgress(t *testing.T) {
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	r.SetHasDarkBackground(false)
	p, _ := ByName(Auto)
	s := NewStyles(r, p)
	if s.ProgressColor() != p.ProgressLight {
		t.Fatalf("progress colour on a light background = %q", s.ProgressColor())
	}
	if s.LogLevel("error").Render("e") == s.LogLevel("debug").Render("e") {
		t.Fatal("error and debug logs look the same")
	}
	if s.LogLevel("emergency").Render("e") != s.LogLevel("error").Render("e") {
		t.Fatal("emergency is not drawn as an error")
	}
	m, _ := ByName(Mono)
	if NewStyles(r, m).ProgressColor() != "" {
		t.Fatal("mono has a progress colour")
	}
}
