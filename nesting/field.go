package nesting

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// maxFieldLen bounds a field name taken from hostile text.
const maxFieldLen = 64

// YAMLTopKey names the top-level key whose value holds offset off: the key
// of the last line before off that starts at column 1 with "key:". It is
// "" when there is none (a document that is a list or a bare value). It
// reads the text once and allocates only the name.
func YAMLTopKey(data []byte, off int) string {
	off = min(off, len(data))
	key := ""
	for start := 0; start <= off && start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		line := data[start:]
		if end >= 0 {
			line = data[start : start+end]
		}
		if k, ok := topKeyOf(line); ok {
			key = k
		}
		if end < 0 {
			break
		}
		start += end + 1
	}
	return key
}

func topKeyOf(line []byte) (string, bool) {
	if len(line) == 0 {
		return "", false
	}
	switch line[0] {
	case ' ', '\t', '#', '-', '[', '{', '?', ':', '\r', '%', '&', '*', '!', '|', '>', '.':
		return "", false
	}
	q := byte(0)
	if line[0] == '"' || line[0] == '\'' {
		q = line[0]
	}
	for i := 1; i < len(line); i++ {
		if q != 0 {
			if line[i] == q {
				return clip(string(line[1:i])), i+1 < len(line) && line[i+1] == ':'
			}
			continue
		}
		if line[i] == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t' || line[i+1] == '\r') {
			return clip(strings.TrimSpace(string(line[:i]))), true
		}
	}
	return "", false
}

// TOMLKey names where offset off sits in a TOML text: the last table
// header before it, and the key of the key/value line holding it.
func TOMLKey(data []byte, off int) string {
	off = min(off, len(data))
	table, key := "", ""
	for start := 0; start <= off && start < len(data); {
		end := bytes.IndexByte(data[start:], '\n')
		line := data[start:]
		if end >= 0 {
			line = data[start : start+end]
		}
		t := bytes.TrimLeft(line, " \t")
		switch {
		case len(t) > 0 && t[0] == '[':
			h := bytes.Trim(t, "[] \t\r")
			if i := bytes.IndexByte(h, ']'); i >= 0 {
				h = bytes.TrimRight(h[:i], "] \t")
			}
			table, key = clip(string(h)), ""
		case bytes.IndexByte(t, '=') > 0:
			key = clip(strings.TrimSpace(string(t[:bytes.IndexByte(t, '=')])))
		}
		if end < 0 {
			break
		}
		start += end + 1
	}
	switch {
	case table == "":
		return key
	case key == "":
		return table
	}
	return table + "." + key
}

// clip shortens a name taken from the text to maxFieldLen characters.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxFieldLen {
		return s
	}
	r := []rune(s)
	return string(r[:maxFieldLen]) + "…"
}
