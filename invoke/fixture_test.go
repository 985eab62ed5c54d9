package invoke

import (
	"encoding/json"

	"github.com/relavium/relavium/fault"
)

// machineEnvelope decodes one --json envelope.
type machineEnvelope struct {
	OK    bool            `json:"ok"`
	Data  json.RawMessage `json:"data"`
	Error *struct {
		Code    fault.Code `json:"code"`
		Message string     `json:"message"`
		Cause   any        `json:"cause"`
	} `json:"error"`
}

// strconvQuote spells s as a JSON string, which TOML and YAML read as the
// same double-quoted string.
func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
