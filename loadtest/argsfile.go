package loadtest

import (
	"bytes"
	"encoding/json"

	"github.com/relavium/relavium/nesting"
	"github.com/relavium/relavium/regularfile"
)

// Bounds of an --args-file.
const (
	MaxArgsFileBytes = 16 << 20
	MaxArgsLines     = 100_000
	maxArgsDepth     = 64
)

// ReadArgsFile reads an NDJSON file of argument sets: one JSON object a
// line (blank lines skipped). A run sends set i mod n with request i, so a
// server's caches do not flatter it. Every line is checked for nesting
// before it is parsed; the first bad line is named.
func ReadArgsFile(path string) ([]json.RawMessage, error) {
	data, _, err := regularfile.Read(path, MaxArgsFileBytes, regularfile.Options{})
	if err != nil {
		return nil, codes.Wrap(CodeArgsFile, err, "cannot read --args-file %s", path)
	}
	var sets []json.RawMessage
	for no, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if len(sets) == MaxArgsLines {
			return nil, codes.New(CodeArgsFile, "--args-file %s has more than %d argument sets", path, MaxArgsLines)
		}
		if _, ex := nesting.JSON(line, nesting.Limits{MaxDepth: maxArgsDepth}); ex != nil {
			return nil, codes.New(CodeArgsFile, "--args-file %s line %d nests deeper than %d levels", path, no+1, maxArgsDepth)
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
			return nil, codes.New(CodeArgsFile, "--args-file %s line %d is not a JSON object", path, no+1)
		}
		sets = append(sets, json.RawMessage(bytes.Clone(line)))
	}
	if len(sets) == 0 {
		return nil, codes.New(CodeArgsFile, "--args-file %s holds no argument set", path)
	}
	return sets, nil
}
