package themes

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// Theme names.
const (
	Auto         = "auto"
	Dark         = "dark"
	Light        = "light"
	HighContrast = "high-contrast"
	Mono         = "mono"
)

// Names lists every theme name, the adaptive default first.
func Names() []string { return []string{Auto, Dark, Light, HighContrast, Mono} }

func joinNames() string { return strings.Join(Names(), ", ") }

// Palette is the semantic colour set. Views never name a colour: they ask
// for a role.
type Palette struct {
	Name string

	Primary lipgloss.TerminalColor // titles, the focused pane, key hints
	Accent  lipgloss.TerminalColor // secondary highlight (spinner, links)
	Text    lipgloss.TerminalColor // body text
	Muted   lipgloss.TerminalColor // labels, hints, unfocused chrome

	OK    lipgloss.TerminalColor // ready, success
	Warn  lipgloss.TerminalColor // needs consent, writes, warnings
	Error lipgloss.TerminalColor // failed, isError, denied

	Border      lipgloss.TerminalColor // pane separators, dialog frames
	BorderFocus lipgloss.TerminalColor // the focused pane's frame

	SelectionFg lipgloss.TerminalColor // the selected row
	SelectionBg lipgloss.TerminalColor

	DiffAdd lipgloss.TerminalColor // "+ " lines of a consent diff
	DiffDel lipgloss.TerminalColor // "- " lines

	BadgeRead        lipgloss.TerminalColor // read-only (advisory)
	BadgeWrite       lipgloss.TerminalColor // writes, not destructive (advisory)
	BadgeDestructive lipgloss.TerminalColor // destructive (advisory)
	BadgeChanged     lipgloss.TerminalColor // pinned definition changed

	JSONKey     lipgloss.TerminalColor
	JSONString  lipgloss.TerminalColor
	JSONNumber  lipgloss.TerminalColor
	JSONLiteral lipgloss.TerminalColor // true, false, null

	// ProgressLight and ProgressDark are the progress bar's fill as hex
	// (bubbles/progress takes hex); empty draws it without colour.
	ProgressLight, ProgressDark string

	// Mono marks the colourless theme: emphasis is bold, underline and
	// reverse only.
	Mono bool
}

// pair is one role's colour on a light and on a dark background.
type pair struct{ light, dark string }

// roles is the one table the dark, light and adaptive palettes come from.
type roles struct {
	primary, accent, text, muted, ok, warn, err, border, borderFocus,
	selFg, selBg, diffAdd, diffDel, badgeRead, badgeWrite, badgeDestructive, badgeChanged,
	jsonKey, jsonString, jsonNumber, jsonLiteral pair
}

func builtinRoles() roles {
	return roles{
		primary:          pair{"#5A3FD1", "#A99BFF"},
		accent:           pair{"#0B7A8C", "#5FD7E8"},
		text:             pair{"#1F1F24", "#E4E4EA"},
		muted:            pair{"#6B6B76", "#8C8C99"},
		ok:               pair{"#1E7B34", "#6BD68A"},
		warn:             pair{"#9A5B00", "#F2C14E"},
		err:              pair{"#B3261E", "#FF6B6B"},
		border:           pair{"#C8C8D0", "#44444E"},
		borderFocus:      pair{"#5A3FD1", "#A99BFF"},
		selFg:            pair{"#FFFFFF", "#15151A"},
		selBg:            pair{"#5A3FD1", "#A99BFF"},
		diffAdd:          pair{"#1E7B34", "#6BD68A"},
		diffDel:          pair{"#B3261E", "#FF6B6B"},
		badgeRead:        pair{"#1E7B34", "#6BD68A"},
		badgeWrite:       pair{"#9A5B00", "#F2C14E"},
		badgeDestructive: pair{"#B3261E", "#FF6B6B"},
		badgeChanged:     pair{"#A3338F", "#F08BDB"},
		jsonKey:          pair{"#2A5DB0", "#82AAFF"},
		jsonString:       pair{"#1E7B34", "#A5E075"},
		jsonNumber:       pair{"#9A5B00", "#F78C6C"},
		jsonLiteral:      pair{"#A3338F", "#C792EA"},
	}
}

// ByName returns a built-in palette. Auto is adaptive: each role resolves
// to its light or dark colour from the renderer's background.
func ByName(name string) (Palette, bool) {
	r := builtinRoles()
	switch name {
	case Auto:
		return r.build(Auto, func(p pair) lipgloss.TerminalColor { return lipgloss.AdaptiveColor{Light: p.light, Dark: p.dark} }), true
	case Dark:
		p := r.build(Dark, func(p pair) lipgloss.TerminalColor { return lipgloss.Color(p.dark) })
		p.ProgressLight = p.ProgressDark
		return p, true
	case Light:
		p := r.build(Light, func(p pair) lipgloss.TerminalColor { return lipgloss.Color(p.light) })
		p.ProgressDark = p.ProgressLight
		return p, true
	case HighContrast:
		return highContrast(), true
	case Mono:
		return mono(), true
	}
	return Palette{}, false
}

func (r roles) build(name string, c func(pair) lipgloss.TerminalColor) Palette {
	return Palette{
		Name: name, Primary: c(r.primary), Accent: c(r.accent), Text: c(r.text), Muted: c(r.muted),
		OK: c(r.ok), Warn: c(r.warn), Error: c(r.err), Border: c(r.border), BorderFocus: c(r.borderFocus),
		SelectionFg: c(r.selFg), SelectionBg: c(r.selBg), DiffAdd: c(r.diffAdd), DiffDel: c(r.diffDel),
		BadgeRead: c(r.badgeRead), BadgeWrite: c(r.badgeWrite), BadgeDestructive: c(r.badgeDestructive),
		BadgeChanged: c(r.badgeChanged), JSONKey: c(r.jsonKey), JSONString: c(r.jsonString),
		JSONNumber: c(r.jsonNumber), JSONLiteral: c(r.jsonLiteral),
		ProgressLight: r.primary.light, ProgressDark: r.primary.dark,
	}
}

// highContrast uses the 16 basic ANSI colours (the terminal's own, tuned by
// the person for legibility) in their bright forms, on the default
// background; selection is reverse video.
func highContrast() Palette {
	a := func(n string) lipgloss.TerminalColor { return lipgloss.Color(n) }
	return Palette{
		Name: HighContrast, Primary: a("14"), Accent: a("13"), Text: a("15"), Muted: a("7"),
		OK: a("10"), Warn: a("11"), Error: a("9"), Border: a("15"), BorderFocus: a("14"),
		SelectionFg: a("0"), SelectionBg: a("14"), DiffAdd: a("10"), DiffDel: a("9"),
		BadgeRead: a("10"), BadgeWrite: a("11"), BadgeDestructive: a("9"), BadgeChanged: a("13"),
		JSONKey: a("14"), JSONString: a("10"), JSONNumber: a("11"), JSONLiteral: a("13"),
		ProgressLight: "#00FFFF", ProgressDark: "#00FFFF",
	}
}

// mono has no colour at all (NO_COLOR).
func mono() Palette {
	n := lipgloss.NoColor{}
	return Palette{
		Name: Mono, Primary: n, Accent: n, Text: n, Muted: n, OK: n, Warn: n, Error: n,
		Border: n, BorderFocus: n, SelectionFg: n, SelectionBg: n, DiffAdd: n, DiffDel: n,
		BadgeRead: n, BadgeWrite: n, BadgeDestructive: n, BadgeChanged: n,
		JSONKey: n, JSONString: n, JSONNumber: n, JSONLiteral: n, Mono: true,
	}
}
