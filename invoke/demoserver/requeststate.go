package demoserver

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// Request state (SEP-2322). A tool that needs more than one round trip
// returns its progress as requestState and the client echoes it back with
// the answers; the demo server keeps nothing between rounds (the 2026-07-28
// era over HTTP is stateless). Since the client holds the state, the server
// signs it: HMAC-SHA256 under a key each Server draws at start, over the
// payload, which names the tool it belongs to and when it expires. A state
// that was altered, belongs to another tool or server, or is older than
// stateTTL is refused with invalid params, and never acted on.

// stateTTL bounds how long a client may take to answer a round.
const stateTTL = 10 * time.Minute

// maxStateLen bounds a requestState the server will look at.
const maxStateLen = 4096

// roundState is the signed payload of a requestState.
type roundState struct {
	Tool    string `json:"tool"`
	Round   int    `json:"round"`
	Name    string `json:"name,omitempty"` // an answer carried to a later round
	Expires int64  `json:"exp"`            // unix seconds
	Nonce   string `json:"nonce"`          // two states of one round differ
}

// newStateKey draws a server's signing key.
func newStateKey() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}

// seal returns the signed requestState of st: base64url(payload) "."
// base64url(mac).
func (s *Server) seal(st roundState) string {
	st.Expires = time.Now().Add(stateTTL).Unix()
	var n [12]byte
	_, _ = rand.Read(n[:])
	st.Nonce = base64.RawURLEncoding.EncodeToString(n[:])
	b, _ := json.Marshal(st)
	p := base64.RawURLEncoding.EncodeToString(b)
	return p + "." + base64.RawURLEncoding.EncodeToString(s.mac(p))
}

func (s *Server) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.stateKey)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// errBadState refuses a requestState that fails its integrity check.
var errBadState = &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
	Message: "requestState failed its integrity check (altered, expired, or issued for another tool); call the tool again without it"}

// open verifies state and returns its payload; a state of another tool,
// an altered or expired one is errBadState.
func (s *Server) open(state, tool string) (roundState, error) {
	var st roundState
	p, sig, ok := strings.Cut(state, ".")
	if !ok || len(state) > maxStateLen {
		return st, errBadState
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(p)) {
		return st, errBadState
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(p)
	if err != nil || json.Unmarshal(b, &st) != nil || st.Tool != tool || time.Now().Unix() > st.Expires {
		return roundState{}, errBadState
	}
	return st, nil
}
