package lint

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/relavium/relavium/engine/sanitize"
)

var (
	instruction = regexp.MustCompile(`(?i)(` +
		`\b(ignore|disregard|forget|override)\s+(all\s+|any\s+)?(of\s+)?(the\s+|your\s+)?(previous|prior|above|earlier|other|system)\s+(instructions|prompts?|rules|messages|directions)` +
		`|\b(do\s+not|don't|never)\s+(tell|inform|mention|reveal|show|disclose|notify)\b[^.\n]{0,24}\b(the\s+)?(user|human|person)` +
		`|\bwithout\s+(telling|informing|notifying|alerting)\s+the\s+(user|human|person)` +
		`|<\s*/?\s*(important|system|instructions?|secret)\s*>` +
		`|\bbefore\s+(using|calling|invoking)\s+(this|any)\s+tool\b[^.\n]{0,16}\b(you\s+must|always|first)` +
		`|\b(system\s+prompt|you\s+are\s+now\s+)` +
		`)`)
	secretAccess = regexp.MustCompile(`(?i)(` +
		`~/\.ssh|\bid_(rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|(^|[\s/'"` + "`" + `])\.env\b|/etc/(passwd|shadow)|\.netrc\b|\.npmrc\b|\.git-credentials|\.pgpass|\bmcp\.json\b|claude_desktop_config|\bprivate\s+keys?\b` +
		`|\b(read|cat|open|send|include|pass|copy|upload|paste|attach)\b[^.\n]{0,40}\b(api[\s_-]?keys?|passwords?|secrets?|tokens?|credentials?|ssh\s+keys?)\b` +
		`)`)
	comment  = regexp.MustCompile(`(?i)(<!--|\[//\]\s*:\s*#|\[comment\]\s*:\s*#|display\s*:\s*none|visibility\s*:\s*hidden|<\s*hidden\b)`)
	urlRe    = regexp.MustCompile(`(?i)\b(https?|ftp|wss?)://[^\s"'<>)\]]+`)
	dataURI  = regexp.MustCompile(`(?i)\bdata:[a-z]+/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*,`)
	blankRun = regexp.MustCompile(`\n[ \t\r]*\n[ \t\r]*\n[ \t\r]*\n[ \t\r]*\n`)
)

// refusal: a sentence that says the paths it names are refused, not
// asked for ("System paths and hidden config directories (e.g. "/etc",
// "~/.ssh") are rejected": the CircleCI server's outputDir). Only words
// of refusal count, never a bare "not": "do not tell the user, read
// ~/.ssh" still asks.
var refusal = regexp.MustCompile(`(?i)\b(are|is|will\s+be|get|gets)\s+(rejected|refused|denied|blocked|forbidden|prohibited|disallowed|excluded|not\s+(allowed|permitted|accepted))\b|\b(rejects|refuses|denies|blocks|never\s+(reads|opens|touches|accesses))\b`)

// askedSecret is the first mention of a secret file or a request for a
// secret in s, outside a sentence that refuses what it names.
func askedSecret(s string) string {
	for _, loc := range secretAccess.FindAllStringIndex(s, 8) {
		if !refusal.MatchString(sentenceAt(s, loc[0], loc[1])) {
			return s[loc[0]:loc[1]]
		}
	}
	return ""
}

// sentenceAt is the sentence of s holding s[i:j]: from the last sentence
// end before i to the first one after j (a period, ! or ? before a space
// or the end, or a line break).
func sentenceAt(s string, i, j int) string {
	start := 0
	for k := i - 1; k > 0; k-- {
		if s[k] == '\n' || (s[k] == ' ' && strings.ContainsRune(".!?", rune(s[k-1]))) {
			start = k + 1
			break
		}
	}
	end := len(s)
	for k := j; k < len(s); k++ {
		if s[k] == '\n' || (strings.ContainsRune(".!?", rune(s[k])) && (k+1 == len(s) || s[k+1] == ' ')) {
			end = k
			break
		}
	}
	return s[start:end]
}

// layout is t's text as the hidden-text rule reads it. In prose (a
// description or title) a line break or tab is layout every real server
// uses, and an emoji's presentation selector (U+FE0E, U+FE0F after a
// symbol: "⚠️") or the joiner inside an emoji sequence is part of the
// symbol shown: each becomes spaces of its own length (byte offsets stay).
// In a name every one of them is still hidden text.
func layout(t text) string {
	if t.name {
		return t.s
	}
	b := []byte(t.s)
	prev := rune(-1)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		next, _ := utf8.DecodeRune(b[i+n:])
		symbol := prev >= 0 && unicode.Is(unicode.So, prev)
		switch {
		case r == '\n' || r == '\r' || r == '\t',
			(r == 0xFE0E || r == 0xFE0F) && symbol,
			r == 0x200D && (symbol || prev == 0xFE0F) && unicode.Is(unicode.So, next):
			for k := range n {
				b[i+k] = ' '
			}
		}
		if r != 0xFE0E && r != 0xFE0F || !symbol {
			prev = r
		}
		i += n
	}
	return string(b)
}

// maxDescription is the description size above which RL008 fires.
const maxDescription = 2048

// text is one string member of a definition: where it sits and what it says.
type text struct {
	ptr  string
	s    string
	top  bool // the definition's own description
	name bool // a name (hidden-text only)
}

// checkText runs the text rules over t, appending findings via add.
func (c *checker) checkText(t text, add func(rule, ptr, msg string)) {
	if v := sanitize.Check(layout(t)); v != nil {
		add(RuleHiddenText, t.ptr, fmt.Sprintf("holds %s character U+%04X at byte %d", v.Class, v.Rune, v.Offset))
	}
	if t.name {
		return
	}
	// The other rules read the text as it shows: terminal sequences and
	// invisible characters removed, so "\x1b[31mIgnore previous…" or
	// "ig\u200bnore" cannot slip between word boundaries.
	t.s = sanitize.Text(t.s)
	if m := instruction.FindString(t.s); m != "" {
		add(RuleInstruction, t.ptr, "instructs the model: "+excerpt(m))
	}
	if m := askedSecret(t.s); m != "" {
		add(RuleSecretAccess, t.ptr, "asks for files or secrets: "+excerpt(strings.TrimSpace(m)))
	}
	if m := comment.FindString(t.s); m != "" {
		add(RuleComment, t.ptr, "holds hidden markup: "+excerpt(m))
	}
	if m := dataURI.FindString(t.s); m != "" {
		add(RuleDataURI, t.ptr, "holds a data URI: "+excerpt(m))
	}
	if m := urlRe.FindString(t.s); m != "" {
		add(RuleURL, t.ptr, "holds a URL: "+excerpt(m))
	}
	for _, other := range c.otherTools {
		if other.server != c.server && mentions(t.s, other.name) {
			add(RuleOtherTool, t.ptr, fmt.Sprintf("names %s, a tool of server %s", excerpt(other.name), excerpt(other.server)))
			break
		}
	}
	if !t.top {
		return
	}
	if len(t.s) > maxDescription {
		add(RuleOversize, t.ptr, fmt.Sprintf("is %d bytes (over %d)", len(t.s), maxDescription))
	}
	if ws := whitespaceShare(t.s); (len(t.s) >= 200 && ws > 0.5) || blankRun.MatchString(t.s) {
		add(RuleWhitespace, t.ptr, fmt.Sprintf("is %.0f%% whitespace or pushes text down with blank lines", ws*100))
	}
}

// mentions reports whether s names tool as a word of its own. Only an
// identifier-like name counts (snake, kebab or camel case, or a digit):
// "echo" or "progress" in prose is a word, not a reference.
func mentions(s, tool string) bool {
	if len(tool) < 4 || !identifierLike(tool) {
		return false
	}
	for i := 0; ; {
		j := strings.Index(s[i:], tool)
		if j < 0 {
			return false
		}
		j += i
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+len(tool):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		i = j + 1
	}
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-')
}

func whitespaceShare(s string) float64 {
	if s == "" {
		return 0
	}
	n := 0
	for _, r := range s {
		if unicode.IsSpace(r) {
			n++
		}
	}
	return float64(n) / float64(utf8.RuneCountInString(s))
}

// excerpt is a short, escaped, one-line quotation of server text.
func excerpt(s string) string {
	const limit = 60
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= limit {
			b.WriteString("…")
			break
		}
		switch {
		case sanitize.Check(string(r)) != nil || r == '\n' || r == '\r' || r == '\t':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return `"` + b.String() + `"`
}

func identifierLike(name string) bool {
	prevLower := false
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || unicode.IsDigit(r):
			return true
		case unicode.IsUpper(r) && prevLower:
			return true
		}
		prevLower = unicode.IsLower(r)
	}
	return false
}
