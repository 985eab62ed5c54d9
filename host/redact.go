package host

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/relavium/relavium/redact"
)

// What a server hands back (its error messages, log data, progress and
// elicitation text, results, serverInfo) and what the SDK and net/http
// report about a network target (`Post "https://h/mcp?token=…": …`) may
// quote what relavium must never show: a secret value of the session, and
// the query or fragment of a network url (the url is reported redacted
// everywhere else). The values are the session's one redactor's (package
// redact, Options.Redact: every connection adds what it injects or holds);
// the url's spellings are the connection's own. Everything host puts into
// an error, a status or an event passes here.

// redactText replaces every secret value of the session (and the OAuth
// tokens this server's sign-in holds now) and every spelling of the target
// url's query.
func (c *conn) redactText(s string) string {
	if s == "" {
		return s
	}
	c.redactor().AddAll(c.tokens()...)
	return c.redactTarget(c.redactor().Text(s))
}

// redactor is the session's one redactor (nil, which redacts nothing, for
// a conn no host made).
func (c *conn) redactor() *redact.Set {
	if c.h == nil {
		return nil
	}
	return c.h.opts.Redact
}

// redactTarget replaces every spelling of the target url's query and
// fragment.
func (c *conn) redactTarget(s string) string {
	t := c.srv.Target
	if t == nil || s == "" {
		return s
	}
	shown := c.srv.shownURL()
	if c.srv.URL != "" { // expanded from references: shown as written
		s = strings.ReplaceAll(s, t.URL(), shown)
		s = strings.ReplaceAll(s, t.Redacted(), shown)
	}
	u, err := url.Parse(t.URL())
	if err != nil || (u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery) {
		return s
	}
	for _, full := range []string{t.URL(), u.String(), u.Redacted()} {
		s = strings.ReplaceAll(s, full, shown)
	}
	// Any other rendering of the query (re-encoded) is still the query:
	// never shown. (Too short a query would garble the text around it and
	// holds no credential worth the name.)
	for _, q := range []string{u.RawQuery, u.Query().Encode()} {
		if len(q) >= minRedactedQuery {
			s = strings.ReplaceAll(s, q, "[redacted]")
		}
	}
	return s
}

// redactErr returns err unchanged when its text quotes nothing to redact,
// else an error with the redacted text that still unwraps to err (so
// errors.Is and errors.As keep working on the chain).
func (c *conn) redactErr(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if r := c.redactText(msg); r != msg {
		return &redactedError{msg: r, err: err}
	}
	return err
}

// redactJSON redacts a JSON document (a log notification's data,
// structured content): each secret is matched in its JSON-escaped
// spellings too, and what replaces it needs no escaping.
func (c *conn) redactJSON(data json.RawMessage) json.RawMessage {
	if len(data) == 0 {
		return data
	}
	c.redactor().AddAll(c.tokens()...)
	r := c.redactor().JSON(data)
	s := c.redactTarget(string(r))
	if !json.Valid([]byte(s)) {
		return jsonString(s)
	}
	return json.RawMessage(s)
}

// minRedactedQuery is the shortest query redacted wherever it appears.
const minRedactedQuery = 6

// redactedError is an error whose text was redacted; it unwraps to the
// original.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// Redact implements engine.Redactor: every secret value of the session,
// and any spelling of server's url query, replaced in s. engine.Trace
// passes every string of a call's events through it.
func (h *Host) Redact(server, s string) string {
	for _, c := range h.connList() {
		if c.srv.Name == server {
			return c.redactText(s)
		}
	}
	return h.opts.Redact.Text(s)
}
