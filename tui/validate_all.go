package tui

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/relavium/relavium/engine"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/tui/backend"
)

// maxValidationErrors bounds the errors one submission reports.
const maxValidationErrors = 20

// validateAll finds every property the tool's schema refuses, not only
// the first: the validator stops at one, so the refused property is set
// aside and the rest checked again, until they pass, the refusal is not
// of one property (or is of a property set aside: then it is ours), or
// maxValidationErrors are found. The first error is what the validator
// said of the arguments as sent.
func validateAll(b backend.Backend, id engine.ToolID, args json.RawMessage) []error {
	err := b.Validate(id, args)
	if err == nil {
		return nil
	}
	errs := []error{err}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		return errs
	}
	aside := map[string]bool{}
	for len(errs) < maxValidationErrors {
		var de *discovery.Error
		if !errors.As(errs[len(errs)-1], &de) || de.Pointer == "" || de.Code() != discovery.CodeInvalidArgs {
			break
		}
		key := strings.SplitN(strings.TrimPrefix(de.Pointer, "/"), "/", 2)[0]
		key = strings.ReplaceAll(strings.ReplaceAll(key, "~1", "/"), "~0", "~")
		if aside[key] {
			break
		}
		aside[key] = true
		delete(obj, key)
		rest, _ := json.Marshal(obj)
		next := b.Validate(id, rest)
		if next == nil || mentionsAside(next, aside) {
			break
		}
		errs = append(errs, next)
	}
	return errs
}

// mentionsAside reports whether err is about a property validateAll set
// aside (a "required" refusal of its own making).
func mentionsAside(err error, aside map[string]bool) bool {
	msg := err.Error()
	for k := range aside {
		if strings.Contains(msg, `"`+k+`"`) {
			return true
		}
	}
	return false
}
