package tui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/relavium/relavium/session"
	"github.com/relavium/relavium/themes"
	"github.com/relavium/relavium/tui/backend"
	"github.com/relavium/relavium/tui/graphics"
	"github.com/relavium/relavium/tui/live"
)

// Run opens the interactive session in the alternate screen over wb: the
// project's declared servers (or the embedded demo agent), as the command
// line loaded them. Everything that can be refused before the screen opens
// is refused first, exit 2: an unknown theme, an --allow-mcp-stdio digest
// that matches nothing (config and agent problems were refused before wb
// was made). When the program ends (q, ctrl-c, a signal) every server is
// torn down and its processes reaped before Run returns.
func Run(ctx context.Context, wb session.Workbench) error {
	getenv := wb.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	choice, err := themes.Choose(wb.ThemeFlag, getenv("RELAVIUM_THEME"), wb.ConfigTheme, getenv("NO_COLOR"))
	if err != nil {
		return err
	}
	if _, _, err := wb.Session.Decide(); err != nil {
		return err
	}

	renderer := lipgloss.NewRenderer(wb.Stdout)
	if choice.Name != themes.Auto {
		renderer.SetHasDarkBackground(choice.Name != themes.Light) // no terminal query needed
	}
	palette, _ := themes.ByName(choice.Name)
	if renderer.ColorProfile() == termenv.Ascii { // NO_COLOR, or a terminal that draws nothing
		renderer.SetColorProfile(drawProfile(choice, palette.Mono, termenv.NewOutput(wb.Stdout).ColorProfile()))
	}
	// NewStyles asks the terminal for its background (auto) now, before the
	// program reads stdin.
	st := themes.NewStyles(renderer, palette)

	info := backend.SessionInfo{Project: wb.Project, Agent: wb.Agent, Demo: wb.Demo, Theme: choice, Warnings: wb.Warnings, Graphics: graphics.Protocol(getenv)}
	b := live.New(ctx, wb, info)
	m := New(ctx, b, Options{Styles: st, Now: wb.Now, Redact: wb.Session.Redactor()})
	b.SetElicitor(m.Elicitor())

	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithAltScreen(), tea.WithMouseCellMotion(),
		tea.WithInput(wb.Stdin), tea.WithOutput(wb.Stdout)}
	_, runErr := tea.NewProgram(m, opts...).Run()
	m.Shutdown()
	closeErr := b.Close()
	switch {
	case runErr == nil, errors.Is(runErr, tea.ErrInterrupted):
	case errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() != nil:
		// a signal ended the session: torn down above
	default:
		return &backend.Error{ErrCode: backend.CodeProgram, Msg: "the terminal session failed", Cause: runErr}
	}
	if closeErr != nil {
		return closeErr
	}
	return nil
}

// drawProfile is the colour profile to draw with when termenv answered
// Ascii (it does for NO_COLOR whatever the terminal can do); term is what
// the terminal itself can draw, NO_COLOR aside.
//   - A theme chosen explicitly (--theme, RELAVIUM_THEME, config) overrides
//     NO_COLOR, as themes.Choose documents and no-color.org asks: it draws
//     with the terminal's own profile.
//   - mono (chosen, or NO_COLOR's theme) marks the focused pane, the
//     selection, the focused button and the text cursor with bold,
//     underline and reverse — emphasis, which NO_COLOR does not forbid —
//     so it gets the basic profile: its palette holds no colour, so only
//     attributes are ever written.
//   - Otherwise (the default theme, or a terminal that draws nothing) Ascii
//     stands.
func drawProfile(choice themes.Choice, mono bool, term termenv.Profile) termenv.Profile {
	switch {
	case term == termenv.Ascii:
		return termenv.Ascii
	case mono:
		return termenv.ANSI
	case choice.Source != "default" && choice.Source != "NO_COLOR":
		return term
	}
	return termenv.Ascii
}
