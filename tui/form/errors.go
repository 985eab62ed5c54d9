package form

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/tui/render"
)

// SetError shows one validation error (SetErrors).
func (f *Form) SetError(err error) {
	if err != nil {
		f.SetErrors([]error{err})
	}
}

// SetErrors shows every validation error at once: each on the field its
// JSON pointer names (with the pointer when it goes deeper than the
// field), the rest on the form, one per line with its pointer. In raw JSON
// every error is on the form.
func (f *Form) SetErrors(errs []error) {
	var rest []string
	for _, err := range errs {
		if err == nil {
			continue
		}
		var de *discovery.Error
		if !errors.As(err, &de) || de.Pointer == "" {
			rest = append(rest, render.ServerLine(err.Error()))
			continue
		}
		msg := render.ServerLine(de.Msg)
		if de.Rule != "" {
			msg += " (" + de.Rule + ")"
		}
		name := strings.SplitN(strings.TrimPrefix(de.Pointer, "/"), "/", 2)[0]
		name = strings.ReplaceAll(strings.ReplaceAll(name, "~1", "/"), "~0", "~")
		if fld := f.Field(name); fld != nil && !f.Raw {
			if de.Pointer != "/"+name {
				msg = "at " + render.ServerLine(de.Pointer) + ": " + msg
			}
			if fld.Err != "" {
				fld.Err += "; " + msg
			} else {
				fld.Err = msg
			}
			continue
		}
		rest = append(rest, "at "+render.ServerLine(de.Pointer)+": "+msg)
	}
	f.Err = strings.Join(rest, "\n")
}

// SyntaxWhere names where raw JSON stopped parsing: line and column (both
// from 1) with the parser's reason.
func SyntaxWhere(text string, err error) string {
	var off int64 = -1
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(text)) {
		return err.Error()
	}
	head := text[:off]
	line := strings.Count(head, "\n") + 1
	col := len([]rune(head[strings.LastIndexByte(head, '\n')+1:]))
	if se != nil { // the offset is past the byte that broke it
		col = max(1, col)
	} else {
		col++
	}
	return "line " + strconv.Itoa(line) + ", column " + strconv.Itoa(col) + ": " + err.Error()
}
