package form

import (
	"encoding/json"
	"errors"
	"net/mail"
	"net/url"
	"time"
)

// checkFormat checks a string value against the field's "format" before
// the answer leaves: email, uri, date and date-time. Other formats, and
// values that are not strings, are the receiver's to judge.
func checkFormat(format string, v any) error {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.RawMessage: // as fields types a person's text
		if json.Unmarshal(x, &s) != nil {
			return nil
		}
	default:
		return nil
	}
	switch format {
	case "email":
		if a, err := mail.ParseAddress(s); err != nil || a.Address != s || a.Name != "" {
			return errors.New("not an email address (name@example.com)")
		}
	case "uri":
		if u, err := url.Parse(s); err != nil || !u.IsAbs() || (u.Host == "" && u.Opaque == "" && u.Path == "") {
			return errors.New("not an absolute URI (scheme:…, such as https://example.com/)")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return errors.New("not a date (YYYY-MM-DD)")
		}
	case "date-time":
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			return errors.New("not a date-time (RFC 3339: 2025-11-25T14:30:00Z)")
		}
	}
	return nil
}
