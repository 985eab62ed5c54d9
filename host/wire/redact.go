package wire

import (
	"bytes"
	"encoding/json"
	"regexp"
)

// credentialKey is a member name whose string value is a credential.
var credentialKey = regexp.MustCompile(`(?i)(token|secret|passw|authoriz|api[-_]?key|apikey|cookie|credential|private[-_]?key|access[-_]?key|session[-_]?key)`)

// notCredential are members the pattern matches that hold no secret and
// that pairing and replay need as sent.
var notCredential = map[string]bool{"progressToken": true, "maxTokens": true}

const redacted = "[redacted]"

// credentialWords are what credentialKey can match, lower-cased: a message
// holding none of them has no member to scrub, and is not walked.
var credentialWords = [][]byte{[]byte("token"), []byte("secret"), []byte("passw"), []byte("authoriz"), []byte("api"),
	[]byte("cookie"), []byte("credential"), []byte("private"), []byte("access"), []byte("session")}

// mayNameCredential is the cheap test before the walk: bytes.Contains over
// a lower-cased copy (a regular expression over a 4 MiB page costs a
// second; this costs a few milliseconds).
func mayNameCredential(raw []byte) bool {
	lower := bytes.ToLower(raw)
	for _, w := range credentialWords {
		if bytes.Contains(lower, w) {
			return true
		}
	}
	return false
}

// maxRedactDepth bounds the walk; a deeper message is kept by size only.
const maxRedactDepth = 128

// redactMessage applies the connection's text redaction, then replaces
// every credential-named string member. ok is false when raw could not be
// read back as JSON after that (it is then not kept).
func redactMessage(raw []byte, text func(string) string) (json.RawMessage, bool) {
	if text != nil {
		raw = []byte(text(string(raw)))
	}
	if !mayNameCredential(raw) {
		var b bytes.Buffer
		if json.Compact(&b, raw) != nil {
			return nil, false
		}
		return b.Bytes(), true
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	v, ok := scrub(v, 0)
	if !ok {
		return nil, false
	}
	out, err := json.Marshal(v)
	return out, err == nil
}

func scrub(v any, depth int) (any, bool) {
	if depth > maxRedactDepth {
		return nil, false
	}
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, isStr := val.(string); isStr && s != "" && credentialKey.MatchString(k) && !notCredential[k] {
				x[k] = redacted
				continue
			}
			nv, ok := scrub(val, depth+1)
			if !ok {
				return nil, false
			}
			x[k] = nv
		}
	case []any:
		for i, val := range x {
			nv, ok := scrub(val, depth+1)
			if !ok {
				return nil, false
			}
			x[i] = nv
		}
	}
	return v, true
}
