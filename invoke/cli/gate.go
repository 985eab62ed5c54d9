package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/muesli/cancelreader"

	"github.com/relavium/relavium/workflow"
)

// maxAnswer bounds one typed answer; anything longer is not a yes.
const maxAnswer = 256

// AskGate puts a gate to the person on the terminal: the question on
// stderr, a y/N answer read from stdin. Only "y" or "yes" approves; an empty
// line, anything else or end of input refuses. The read is cancelled when
// ctx ends (Ctrl-C), so no goroutine is left blocked on the terminal.
func AskGate(ctx context.Context, stdin io.Reader, stderr io.Writer, req workflow.GateRequest) (bool, error) {
	if _, err := fmt.Fprintf(stderr, "? gate %s: %s\n  continue? [y/N] ", req.Step, req.Message); err != nil {
		return false, err
	}
	line, err := ReadLine(ctx, stdin)
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintln(stderr)
			return false, ctx.Err()
		}
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(stderr)
			return false, nil
		}
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

// ReadLine reads one line byte by byte (never past the newline, so a later
// question reads its own answer), cancellable through ctx.
func ReadLine(ctx context.Context, r io.Reader) (string, error) {
	cr, err := cancelreader.NewReader(r)
	if err != nil {
		return "", err
	}
	defer cr.Close()
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		var b strings.Builder
		buf := make([]byte, 1)
		for {
			n, err := cr.Read(buf)
			if n == 1 {
				if buf[0] == '\n' {
					ch <- result{b.String(), nil}
					return
				}
				if b.Len() < maxAnswer {
					b.WriteByte(buf[0])
				}
			}
			if err != nil {
				if errors.Is(err, io.EOF) && b.Len() > 0 {
					err = nil
				}
				ch <- result{b.String(), err}
				return
			}
		}
	}()
	select {
	case res := <-ch:
		return res.line, res.err
	case <-ctx.Done():
		if cr.Cancel() {
			<-ch // a terminal (epoll): the blocked read returns at once
		}
		// A reader that cannot be interrupted is left to its next read,
		// which returns ErrCanceled without consuming anything.
		return "", ctx.Err()
	}
}
