package era

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol eras. A server's declaration asks for one of these (Endpoint.Protocol):
//
//   - ProtocolLegacy (2025-11-25, the default): the classic initialize
//     handshake; a server that answers an older version is accepted.
//   - ProtocolModern (2026-07-28): server/discover, nothing else; a server
//     that does not speak it fails its connect (E597), naming what it
//     answered, rather than being quietly run in the legacy era.
//   - ProtocolAuto: whichever the server speaks, asked for in the order
//     that costs a stateful server no extra round trip (host's handshake).
const (
	ProtocolLegacy = "2025-11-25"
	ProtocolModern = "2026-07-28"
	ProtocolAuto   = "auto"
)

// Protocols are the values a declaration's protocol and --protocol accept.
func Protocols() []string { return []string{ProtocolLegacy, ProtocolModern, ProtocolAuto} }

// ValidProtocol reports whether p is one of Protocols, or "" (the default).
func ValidProtocol(p string) bool {
	return p == "" || p == ProtocolLegacy || p == ProtocolModern || p == ProtocolAuto
}

// Era names a negotiated protocol version's era and what the era means for
// the features that differ between the two: elicitation, server logs and
// sampling. mcp ls and the TUI show it beside the version.
type Era struct {
	Name string `json:"name"` // "legacy" or "modern"
	// Summary says the three in one line (the TUI's server details).
	Summary     string `json:"summary"`
	Elicitation string `json:"elicitation"`
	Logs        string `json:"logs"`
	Sampling    string `json:"sampling"`
}

// EraOf is the era of a negotiated protocol version ("" for none yet).
func EraOf(version string) *Era {
	switch {
	case version == "":
		return nil
	case version >= ProtocolModern:
		return &Era{
			Name:        "modern",
			Summary:     "elicitation and sampling come back as input requests; logs only for requests carrying a level",
			Elicitation: "returned with the tool result as an input request; relavium asks you, then retries the call with your answer",
			Logs:        "sent only for requests that carry a log level (relavium puts its level on each request); no standalone stream",
			Sampling:    "returned with the tool result as an input request, answered like elicitation, then the call is retried",
		}
	}
	return &Era{
		Name:        "legacy",
		Summary:     "elicitation and sampling are asked mid-call; logs stream live",
		Elicitation: "the server asks mid-call (elicitation/create); the call waits for your answer",
		Logs:        "streamed live once logging/setLevel is sent (relavium sends it after connecting)",
		Sampling:    "the server asks mid-call (sampling/createMessage); the call waits for the answer",
	}
}

// Negotiated is the protocol version a session's handshake settled on (""
// before one).
func Negotiated(cs *mcp.ClientSession) string {
	if res := cs.InitializeResult(); res != nil {
		return res.ProtocolVersion
	}
	return ""
}

// Refusal is a server that does not speak the era its declaration asks
// for: it refused server/discover and answered Got.
type Refusal struct{ Got string }

func (e *Refusal) Error() string {
	return fmt.Sprintf("the server refused server/discover and answered protocol %s", e.Got)
}
