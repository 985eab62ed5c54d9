package themes

import "github.com/charmbracelet/lipgloss"

// Styles are the lipgloss styles every relavium view draws with, built from
// one Palette on one renderer.
type Styles struct {
	Palette  Palette
	Renderer *lipgloss.Renderer
	// Dark is the background the renderer reported (or was told).
	Dark bool

	App, Header, Banner lipgloss.Style

	PaneTitle, PaneTitleFocused lipgloss.Style
	Separator, SeparatorFocused lipgloss.Style

	Text, Muted, Faint, Accent, OK, Warn, Error, Bold lipgloss.Style
	Selected, SelectedBlurred                         lipgloss.Style

	BadgeRead, BadgeWrite, BadgeDestructive, BadgeChanged, Advisory lipgloss.Style

	DiffAdd, DiffDel, DiffNote lipgloss.Style

	Dialog, DialogTitle                 lipgloss.Style
	Button, ButtonFocused, ButtonDanger lipgloss.Style

	Label, Required, Input, InputFocused, FieldError lipgloss.Style

	HelpKey, HelpDesc, HelpSep lipgloss.Style

	JSONKey, JSONString, JSONNumber, JSONLiteral, JSONPunct lipgloss.Style

	LogDebug, LogInfo, LogNotice, LogWarning, LogError lipgloss.Style
}

// NewStyles builds the styles of p on r. The renderer decides the colour
// profile and, for the adaptive palette, the background.
func NewStyles(r *lipgloss.Renderer, p Palette) *Styles {
	ns := func() lipgloss.Style { return r.NewStyle() }
	fg := func(c lipgloss.TerminalColor) lipgloss.Style { return ns().Foreground(c) }
	s := &Styles{Palette: p, Renderer: r, Dark: r.HasDarkBackground()}

	s.App = fg(p.Primary).Bold(true)
	s.Header = fg(p.Text)
	s.Banner = fg(p.Error).Bold(true)

	s.PaneTitle = fg(p.Muted).Bold(true)
	s.PaneTitleFocused = fg(p.Primary).Bold(true)
	s.Separator = fg(p.Border)
	s.SeparatorFocused = fg(p.BorderFocus)

	s.Text = fg(p.Text)
	s.Muted = fg(p.Muted)
	s.Faint = fg(p.Muted).Faint(true)
	s.Accent = fg(p.Accent)
	s.OK = fg(p.OK)
	s.Warn = fg(p.Warn)
	s.Error = fg(p.Error)
	s.Bold = ns().Bold(true)
	s.Selected = ns().Foreground(p.SelectionFg).Background(p.SelectionBg)
	s.SelectedBlurred = fg(p.Primary).Bold(true)

	s.BadgeRead = fg(p.BadgeRead)
	s.BadgeWrite = fg(p.BadgeWrite)
	s.BadgeDestructive = fg(p.BadgeDestructive).Bold(true)
	s.BadgeChanged = fg(p.BadgeChanged).Bold(true)
	s.Advisory = fg(p.Muted).Italic(true)

	s.DiffAdd = fg(p.DiffAdd)
	s.DiffDel = fg(p.DiffDel)
	s.DiffNote = fg(p.Warn)

	s.Dialog = ns().Border(lipgloss.RoundedBorder()).BorderForeground(p.BorderFocus).Padding(0, 1)
	s.DialogTitle = fg(p.Primary).Bold(true)
	s.Button = fg(p.Text).Padding(0, 1)
	s.ButtonFocused = ns().Foreground(p.SelectionFg).Background(p.SelectionBg).Bold(true).Padding(0, 1)
	s.ButtonDanger = fg(p.Error).Padding(0, 1)

	s.Label = fg(p.Text).Bold(true)
	s.Required = fg(p.Error).Bold(true)
	s.Input = fg(p.Text)
	s.InputFocused = fg(p.Primary)
	s.FieldError = fg(p.Error)

	s.HelpKey = fg(p.Primary)
	s.HelpDesc = fg(p.Muted)
	s.HelpSep = fg(p.Border)

	s.JSONKey = fg(p.JSONKey)
	s.JSONString = fg(p.JSONString)
	s.JSONNumber = fg(p.JSONNumber)
	s.JSONLiteral = fg(p.JSONLiteral)
	s.JSONPunct = fg(p.Muted)

	s.LogDebug = fg(p.Muted)
	s.LogInfo = fg(p.Text)
	s.LogNotice = fg(p.Accent)
	s.LogWarning = fg(p.Warn)
	s.LogError = fg(p.Error).Bold(true)

	if p.Mono {
		s.monochrome()
	}
	return s
}

// monochrome replaces colour with bold, underline and reverse, so that
// nothing a colour said is lost without it.
func (s *Styles) monochrome() {
	r := s.Renderer
	s.PaneTitle = r.NewStyle().Bold(true)
	s.PaneTitleFocused = r.NewStyle().Bold(true).Underline(true)
	s.Selected = r.NewStyle().Reverse(true)
	s.SelectedBlurred = r.NewStyle().Underline(true)
	s.ButtonFocused = r.NewStyle().Reverse(true).Bold(true).Padding(0, 1)
	s.BadgeDestructive = r.NewStyle().Bold(true)
	s.Error = r.NewStyle().Bold(true)
	s.Banner = r.NewStyle().Bold(true).Reverse(true)
	s.LogError = r.NewStyle().Bold(true)
	s.Required = r.NewStyle().Bold(true)
	s.FieldError = r.NewStyle().Bold(true)
	s.HelpKey = r.NewStyle().Bold(true)
	s.Faint = r.NewStyle()
}

// ProgressColor is the progress bar's fill for the renderer's background
// ("" for no colour).
func (s *Styles) ProgressColor() string {
	if s.Dark {
		return s.Palette.ProgressDark
	}
	return s.Palette.ProgressLight
}

// LogLevel returns the style of an MCP log level (RFC 5424 names).
func (s *Styles) LogLevel(level string) lipgloss.Style {
	switch level {
	case "debug":
		return s.LogDebug
	case "info":
		return s.LogInfo
	case "notice":
		return s.LogNotice
	case "warning":
		return s.LogWarning
	case "error", "critical", "alert", "emergency":
		return s.LogError
	}
	return s.Text
}
