package tui

import (
	"context"
	"errors"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/relavium/relavium/invoke"
	"github.com/relavium/relavium/themes"
)

// Run opens the interactive session in the alternate screen: the project's
// declared servers (or, with demo, the embedded demo agent). Everything
// that can be refused before the screen opens is refused first, exit 2: a
// config or agent problem, an unknown theme, an --allow-mcp-stdio digest
// that matches nothing. When the program ends (q, ctrl-c, a signal) every
// server is torn down and its processes reaped before Run returns.
func Run(ctx context.Context, inv *invoke.Invocation, demo bool) error {
	sess, err := invoke.OpenSession(inv, demo)
	if err != nil {
		return err
	}
	configTheme := ""
	if sess.Config != nil {
		configTheme = sess.Config.Theme
	}
	choice, err := themes.Choose(inv.Global.Theme, inv.Env.Getenv("RELAVIUM_THEME"), configTheme, inv.Env.Getenv("NO_COLOR"))
	if err != nil {
		return err
	}
	if _, _, err := sess.Decide(); err != nil {
		return err
	}

	renderer := lipgloss.NewRenderer(inv.Env.Stdout)
	if choice.Name != themes.Auto {
		renderer.SetHasDarkBackground(choice.Name != themes.Light) // no terminal query needed
	}
	palette, _ := themes.ByName(choice.Name)
	// NewStyles asks the terminal for its background (auto) now, before the
	// program reads stdin.
	st := themes.NewStyles(renderer, palette)

	info := SessionInfo{Project: inv.Global.Project, Agent: sess.Agent, Demo: demo, Theme: choice, Warnings: sess.Warnings()}
	b := newLive(ctx, inv, sess, info)
	m := New(ctx, b, Options{Styles: st, Now: inv.Env.Now})
	b.setElicitor(m.Elicitor())

	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithAltScreen(), tea.WithMouseCellMotion(),
		tea.WithInput(inv.Env.Stdin), tea.WithOutput(inv.Env.Stdout)}
	_, runErr := tea.NewProgram(m, opts...).Run()
	m.Shutdown()
	closeErr := b.Close()
	switch {
	case runErr == nil, errors.Is(runErr, tea.ErrInterrupted):
	case errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() != nil:
		// a signal ended the session: torn down above
	default:
		return &Error{ErrCode: CodeProgram, Msg: "the terminal session failed", Cause: runErr}
	}
	if closeErr != nil {
		return closeErr
	}
	return nil
}
