package host

import (
	"encoding/json"
	"net/url"
	"strings"
)

// What a server hands back (its error messages, log data, progress and
// elicitation text) and what the SDK and net/http report about a network
// target (`Post "https://h/mcp?token=…": …`) may quote what relavium must
// never show: a stdio server's injected secret values, and the query or
// fragment of a network url (the url is reported redacted everywhere else).
// Everything host puts into an error, a status or an event passes here.

// redactText replaces every injected secret value with its {{secrets.NAME}}
// reference and every spelling of the target url with its redacted form.
func (c *conn) redactText(s string) string {
	return c.redactTarget(redact(hideValues(hideValues(s, c.hidden), c.tokens()), c.secrets))
}

// redactTarget replaces every spelling of the target url's query and
// fragment.
func (c *conn) redactTarget(s string) string {
	t := c.srv.Target
	if t == nil || s == "" {
		return s
	}
	u, err := url.Parse(t.URL())
	if err != nil || (u.RawQuery == "" && u.Fragment == "" && !u.ForceQuery) {
		return s
	}
	for _, full := range []string{t.URL(), u.String(), u.Redacted()} {
		s = strings.ReplaceAll(s, full, t.Redacted())
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

// redactJSON redacts a JSON document (a log notification's data): each
// secret is matched in its JSON-escaped spelling, and the reference that
// replaces it needs no escaping.
func (c *conn) redactJSON(data json.RawMessage) json.RawMessage {
	if len(data) == 0 || (len(c.secrets) == 0 && c.srv.Target == nil) {
		return data
	}
	var hidden []string
	for _, v := range c.hidden {
		if b, err := json.Marshal(v); err == nil && len(b) >= 2 {
			hidden = append(hidden, string(b[1:len(b)-1]))
		}
	}
	escaped := make(map[string]string, len(c.secrets))
	for name, v := range c.secrets {
		b, err := json.Marshal(v)
		if err != nil || len(b) < 2 {
			continue
		}
		escaped[name] = string(b[1 : len(b)-1])
	}
	s := c.redactTarget(redact(hideValues(string(data), hidden), escaped))
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

// Redact implements engine.Redactor: every secret value injected into
// server's process, and any spelling of its url's query, replaced in s.
// engine.Trace passes every string of a call's events through it.
func (h *Host) Redact(server, s string) string {
	for _, c := range h.connList() {
		if c.srv.Name == server {
			return c.redactText(s)
		}
	}
	return s
}
