package cli

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/engine/sanitize"
)

// EventPrinter drains one bus subscription in its own goroutine; stop
// closes the bus and waits for it, so nothing is printed after the command
// returns.
type EventPrinter struct {
	sub   *engine.Subscription
	done  chan struct{}
	W     io.Writer  // where events are printed
	notes io.Writer  // where human notes go (stderr)
	Mu    sync.Mutex // held while writing, and while a gate asks the person

	seqMu   sync.Mutex
	printed uint64
	moved   chan struct{} // closed and replaced whenever printed moves
}

// NewPrinter prints events to w; notes are human lines, cleaned by
// sanitize.Writer on their way out (as is w, by the human printers).
func NewPrinter(bus *engine.Bus, w, notes io.Writer) *EventPrinter {
	return &EventPrinter{sub: bus.Subscribe(), done: make(chan struct{}), W: w, notes: sanitize.NewWriter(notes), moved: make(chan struct{})}
}

// StartNDJSONPrinter writes every event as one JSON line, up to and
// including the run's terminal event: the last line on stdout is always
// run:completed, run:failed or run:cancelled. Later events (servers torn
// down) are not printed. Write errors (a closed pipe) never stop the drain.
func StartNDJSONPrinter(bus *engine.Bus, w, notes io.Writer) *EventPrinter {
	p := NewPrinter(bus, w, notes)
	go p.Loop(func(e engine.Event, ended bool) bool {
		if ended {
			return true
		}
		b, err := MarshalJSON(e)
		if err != nil {
			b, _ = MarshalJSON(map[string]any{"seq": e.Seq, "type": e.Type, "time": e.Time, "error": "event not encodable: " + err.Error()})
		}
		_, _ = p.W.Write(append(b, '\n'))
		return engine.IsTerminal(e.Type) && e.RunID != ""
	})
	return p
}

// StartHumanPrinter writes a short line per step and per server state
// change to w (stderr), through sanitize.Writer.
func StartHumanPrinter(bus *engine.Bus, w io.Writer) *EventPrinter {
	w = sanitize.NewWriter(w)
	p := NewPrinter(bus, w, w)
	go p.Loop(func(e engine.Event, _ bool) bool {
		if line := HumanLine(e); line != "" {
			_, _ = io.WriteString(p.W, line+"\n")
		}
		return false
	})
	return p
}

// Loop drains the subscription until the bus is closed; print returns true
// once the stream has ended (events after it are drained, not printed).
func (p *EventPrinter) Loop(print func(e engine.Event, ended bool) bool) {
	defer close(p.done)
	ended := false
	for {
		e, err := p.sub.Next(context.Background())
		if err != nil {
			return
		}
		p.Mu.Lock()
		ended = print(e, ended) || ended
		p.Mu.Unlock()
		p.seqMu.Lock()
		p.printed = e.Seq
		close(p.moved)
		p.moved = make(chan struct{})
		p.seqMu.Unlock()
	}
}

// CatchUp waits until every event up to seq has been printed, so a prompt
// never appears above the lines that led to it.
func (p *EventPrinter) CatchUp(ctx context.Context, seq uint64) error {
	for {
		p.seqMu.Lock()
		printed, moved := p.printed, p.moved
		p.seqMu.Unlock()
		if printed >= seq {
			return nil
		}
		select {
		case <-moved:
		case <-p.done:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Note writes one human line (stderr) in step with the printer.
func (p *EventPrinter) Note(line string) {
	p.Mu.Lock()
	defer p.Mu.Unlock()
	_, _ = io.WriteString(p.notes, line+"\n")
}

// Stop closes the bus and waits until the printer has drained it.
func (p *EventPrinter) Stop(bus *engine.Bus) {
	bus.Close()
	<-p.done
}

// HumanLine renders the events a person follows; "" for the others.
func HumanLine(e engine.Event) string {
	switch d := e.Data.(type) {
	case engine.ServerData:
		switch d.State {
		case engine.StateReady:
			return fmt.Sprintf("● %s ready (%s, %d ms, %d tools)", d.Server, d.Transport, d.ConnectMS, d.Tools)
		case engine.StateFailed:
			return fmt.Sprintf("✗ %s failed: %s", d.Server, sanitize.Line(d.Error))
		}
	case engine.ToolCallData:
		return fmt.Sprintf("▸ %s  %s", d.Step, d.Tool)
	case engine.ToolProgressData:
		msg := ""
		if d.Message != "" {
			msg = "  " + sanitize.Line(d.Message)
		}
		if d.Total > 0 {
			return fmt.Sprintf("  … %g/%g%s", d.Progress.Progress, d.Total, msg)
		}
		return fmt.Sprintf("  … %g%s", d.Progress.Progress, msg)
	case engine.ToolResultData:
		switch {
		case d.Error != "":
			return fmt.Sprintf("✗ %s  %s failed after %d ms: %s", d.Step, d.Tool, d.DurationMS, sanitize.Line(d.Error))
		case d.Result != nil && d.Result.IsError:
			return fmt.Sprintf("✗ %s  %s returned an error (%d ms)", d.Step, d.Tool, d.DurationMS)
		}
		return fmt.Sprintf("✓ %s  %s (%d ms)", d.Step, d.Tool, d.DurationMS)
	case engine.GateResolvedData:
		if d.Approved {
			return fmt.Sprintf("✓ gate %s approved", d.Step)
		}
		if d.Error == "" {
			return fmt.Sprintf("✗ gate %s refused", d.Step)
		}
	case engine.RunCompletedData:
		return fmt.Sprintf("✓ workflow %s completed in %d ms", d.Workflow, d.DurationMS)
	case engine.RunCancelledData:
		return fmt.Sprintf("■ workflow %s cancelled at %s: %s", d.Workflow, d.Step, sanitize.Line(d.Reason))
	}
	return ""
}
