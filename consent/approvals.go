package consent

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// ApprovalFile is the tool-approval store's file name inside the relavium
// home.
const ApprovalFile = "tool-approvals.ndjson"

// Bounds on an approval line's fields: a server name (config caps it far
// lower), an MCP tool name, and a pin digest ("sha256:" + 64 hex).
const (
	maxApprovalServer = 256
	maxApprovalTool   = 128
)

// ToolKey names one tool definition a person may approve: the server's
// registration name, the server's own tool name, and the pin digest of the
// tool's canonical sanitized definition (host/discovery computes it). An
// approval holds for exactly this key: a changed definition has another
// digest, so the approval lapses with it.
type ToolKey struct {
	Server string `json:"server"`
	Tool   string `json:"tool"`
	Digest string `json:"digest"`
}

// Approvals is the append-only tool-approval store
// <home>/tool-approvals.ndjson ("always for this definition"). It is kept
// as a lineFile like the grant store (linefile.go): lines only ever appended
// under an exclusive flock, one write each, fsync'd; 0600 in a 0700 home
// owned by the user; a symlink, a loose mode or another owner refused; and
// a fold that fails closed on any line it cannot parse. Two line shapes:
//
//	{"v":1,"server":S,"tool":T,"digest":D,"approvedAt":TIME}   an approval
//	{"v":1,"server":S,"tool":T,"lapsedAt":TIME}                 every approval of S/T lapses
//
// A later approval of the same server and tool replaces an earlier one, so
// at most one definition of a tool is approved at a time.
type Approvals struct {
	file lineFile
	now  func() time.Time
}

// maxApprovalBytes bounds the approval file (some 1.3 million lines): a
// larger file fails the fold closed. A fold reads line by line, so its
// memory does not depend on it.
const maxApprovalBytes = 256 << 20

// maxApprovalLine bounds one line: a well-formed line is under 600 bytes.
const maxApprovalLine = 4096

// OpenApprovals returns the approval store under home. Nothing is touched
// until a read or write. now is the clock for line times (nil: time.Now).
func OpenApprovals(home string, now func() time.Time) *Approvals {
	if now == nil {
		now = time.Now
	}
	return &Approvals{now: now, file: lineFile{home: home, path: filepath.Join(home, ApprovalFile), name: "tool-approval store",
		refusedCode: CodeApprovalsRefused, ioCode: CodeApprovalsIO,
		maxLine: maxApprovalLine, maxBytes: maxApprovalBytes, lockWait: defaultLockWait}}
}

// Path is the store's file path.
func (a *Approvals) Path() string { return a.file.path }

// Approval is one live approval after the fold.
type Approval struct {
	ToolKey
	ApprovedAt time.Time `json:"approved_at"`
	Line       int       `json:"line"`
}

// ApprovalSet is the folded store, narrowed to the tools asked about.
type ApprovalSet struct {
	live map[[2]string]Approval
}

// Approved reports whether k, exactly, has a live approval.
func (s *ApprovalSet) Approved(k ToolKey) bool {
	if s == nil || k.Digest == "" {
		return false
	}
	ap, ok := s.live[[2]string{k.Server, k.Tool}]
	return ok && ap.Digest == k.Digest
}

// Get returns the live approval of server's tool, whatever its digest.
func (s *ApprovalSet) Get(server, tool string) (Approval, bool) {
	if s == nil {
		return Approval{}, false
	}
	ap, ok := s.live[[2]string{server, tool}]
	return ap, ok
}

// Len is the number of live approvals held.
func (s *ApprovalSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.live)
}

// Fold reads the store and folds it in order. Only tools for which want
// reports true are kept (nil keeps all), so a fold's memory grows with the
// tools asked about, not with the file. Any line that does not parse fails
// the whole fold closed: the set comes back empty (never nil) with an
// *Error E321 naming the line and the reason — a torn last line may be a
// lapse, and skipping it would revive an approval the person withdrew. A
// refused or unreadable file is E320/E322 with an empty set too.
func (a *Approvals) Fold(want func(server, tool string) bool) (*ApprovalSet, error) {
	empty := &ApprovalSet{live: map[[2]string]Approval{}}
	set := &ApprovalSet{live: map[[2]string]Approval{}}
	err := a.file.scan(func(raw []byte, lineNo int, complete bool) error {
		line := strings.Trim(string(raw), " \t\r")
		if line == "" {
			return nil
		}
		rec, reason := parseApprovalLine(line)
		if reason != "" {
			if !complete {
				reason = "truncated last line (no newline) that does not parse: " + reason
			}
			return &lineFault{Line: lineNo, Reason: reason}
		}
		if want != nil && !want(rec.Server, rec.Tool) {
			return nil
		}
		key := [2]string{rec.Server, rec.Tool}
		if rec.lapse {
			delete(set.live, key)
			return nil
		}
		set.live[key] = Approval{ToolKey: rec.ToolKey, ApprovedAt: rec.at, Line: lineNo}
		return nil
	})
	if err != nil {
		var lf *lineFault
		if errors.As(err, &lf) {
			return empty, a.unreadable(lf.Line, lf.Reason)
		}
		return empty, err
	}
	return set, nil
}

// Approve remembers k ("always for this definition"). It folds first and
// refuses to write into a store that fails closed: an approval appended
// there would have no effect, and saying it was remembered would be a lie.
func (a *Approvals) Approve(k ToolKey) error {
	if err := checkToolKey(k, true); err != nil {
		return err
	}
	if _, err := a.Fold(func(string, string) bool { return false }); err != nil {
		return err
	}
	line, err := marshalApproval(approvalLine{V: 1, Server: k.Server, Tool: k.Tool, Digest: k.Digest,
		ApprovedAt: a.now().UTC().Format(timeLayout)})
	if err != nil {
		return err
	}
	return a.file.appendLine(line)
}

// Lapse withdraws every approval of server's tool (its definition was
// accepted anew). Like Approve it refuses a store that fails closed.
func (a *Approvals) Lapse(server, tool string) error {
	if err := checkToolKey(ToolKey{Server: server, Tool: tool}, false); err != nil {
		return err
	}
	if _, err := a.Fold(func(string, string) bool { return false }); err != nil {
		return err
	}
	line, err := marshalApproval(approvalLine{V: 1, Server: server, Tool: tool, LapsedAt: a.now().UTC().Format(timeLayout)})
	if err != nil {
		return err
	}
	return a.file.appendLine(line)
}

func (a *Approvals) unreadable(line int, reason string) error {
	where := quoteArg(a.file.path)
	if line > 0 {
		where += fmt.Sprintf(" line %d", line)
	}
	return &Error{ErrCode: CodeApprovalsUnreadable, Data: foldError(a.file.path, line, reason),
		Msg: fmt.Sprintf("tool-approval store %s: %s; it reads as holding no approvals, so every call is asked about (or needs --yes) until the line is repaired or removed", where, reason)}
}

// approvalLine is both line shapes; omitempty keeps each to its own fields.
type approvalLine struct {
	V          int    `json:"v"`
	Server     string `json:"server"`
	Tool       string `json:"tool"`
	Digest     string `json:"digest,omitempty"`
	ApprovedAt string `json:"approvedAt,omitempty"`
	LapsedAt   string `json:"lapsedAt,omitempty"`
}

func marshalApproval(l approvalLine) ([]byte, error) {
	b, err := json.Marshal(l)
	if err != nil {
		return nil, &Error{ErrCode: CodeApprovalsIO, Msg: "cannot encode a tool-approval line", Cause: err}
	}
	return append(b, '\n'), nil
}

type approvalRecord struct {
	ToolKey
	at    time.Time
	lapse bool
}

// parseApprovalLine parses one non-blank line strictly: exact keys (a
// JavaScript reader's view, not encoding/json's case-insensitive match),
// unknown keys ignored, a repeated key keeps its last value. It returns the
// reason a line is refused.
func parseApprovalLine(line string) (approvalRecord, string) {
	var rec approvalRecord
	if line[0] != '{' {
		return rec, "not a JSON object"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(line), &obj); err != nil {
		return rec, "not valid JSON (" + trimJSONError(err) + ")"
	}
	str := func(key string) (string, bool, string) {
		raw, ok := obj[key]
		if !ok || string(raw) == "null" {
			return "", false, ""
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false, fmt.Sprintf("%q is not a string", key)
		}
		return s, true, ""
	}
	v, ok := obj["v"]
	if !ok {
		return rec, `no "v" field`
	}
	if string(v) != "1" {
		return rec, fmt.Sprintf(`unsupported record version "v":%s (this relavium reads "v":1)`, trimText(string(v)))
	}
	var bad string
	var has bool
	if rec.Server, has, bad = str("server"); bad != "" || !has {
		return rec, firstNonEmpty(bad, `no "server"`)
	}
	if rec.Tool, has, bad = str("tool"); bad != "" || !has {
		return rec, firstNonEmpty(bad, `no "tool"`)
	}
	digest, hasDigest, bad := str("digest")
	if bad != "" {
		return rec, bad
	}
	approvedAt, hasApproved, bad := str("approvedAt")
	if bad != "" {
		return rec, bad
	}
	lapsedAt, hasLapsed, bad := str("lapsedAt")
	if bad != "" {
		return rec, bad
	}
	rec.Digest = digest
	if err := checkToolKey(rec.ToolKey, hasDigest); err != nil {
		return rec, err.(*Error).Msg
	}
	switch {
	case hasLapsed && (hasDigest || hasApproved):
		return rec, `both "lapsedAt" and an approval's fields: neither an approval nor a lapse`
	case hasLapsed:
		at, err := parseTime(lapsedAt)
		if err != nil {
			return rec, fmt.Sprintf(`"lapsedAt" %q is not an ISO-8601 time`, trimText(lapsedAt))
		}
		rec.at, rec.lapse = at, true
		return rec, ""
	case hasDigest && hasApproved:
		at, err := parseTime(approvedAt)
		if err != nil {
			return rec, fmt.Sprintf(`"approvedAt" %q is not an ISO-8601 time`, trimText(approvedAt))
		}
		rec.at = at
		return rec, ""
	case hasDigest:
		return rec, `approval without "approvedAt"`
	}
	return rec, `neither "digest" (an approval) nor "lapsedAt" (a lapse)`
}

// checkToolKey checks the fields a line may carry; withDigest requires a
// pin digest ("sha256:" + 64 lowercase hex).
func checkToolKey(k ToolKey, withDigest bool) error {
	bad := func(format string, a ...any) error {
		return &Error{ErrCode: CodeApprovalsIO, Msg: fmt.Sprintf(format, a...)}
	}
	switch {
	case k.Server == "" || len(k.Server) > maxApprovalServer:
		return bad(`"server" is empty or longer than %d bytes`, maxApprovalServer)
	case k.Tool == "" || len(k.Tool) > maxApprovalTool:
		return bad(`"tool" is empty or longer than %d bytes`, maxApprovalTool)
	case withDigest && !pinDigest(k.Digest):
		return bad(`"digest" %q is not a tool-definition digest (sha256: and 64 lowercase hex)`, trimText(k.Digest))
	}
	return nil
}

func pinDigest(s string) bool {
	hex, ok := strings.CutPrefix(s, "sha256:")
	if !ok || len(hex) != 64 {
		return false
	}
	for i := 0; i < len(hex); i++ {
		if c := hex[i]; c-'0' >= 10 && c-'a' >= 6 {
			return false
		}
	}
	return true
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// Clearance says what let a tool call go ahead without asking; "" means
// the person must be asked (or, headless, the call refused).
type Clearance string

// Clearances, in the order they are considered.
const (
	ClearedByYes         Clearance = "yes"          // --yes on this call
	ClearedByAutoApprove Clearance = "auto-approve" // the tool's exact name is in the server's tools_auto_approve
	ClearedByApproval    Clearance = "approval"     // a remembered approval of this exact definition
)

// CallRequest is what decides whether a tool call must be asked about.
// Annotations are not part of it on purpose: readOnlyHint and the other
// hints are the server's own claims (the MCP specification calls them
// untrusted), so they are shown to the person but never skip the question.
type CallRequest struct {
	Key         ToolKey
	Yes         bool // --yes (or an explicit per-call confirmation) for this call
	AutoApprove bool // the person listed the tool's exact name in tools_auto_approve
	// Changed: the definition differs from the one the person last
	// accepted (a possible rug pull). Until it is accepted, only a per-call
	// confirmation lets a call through: neither a remembered approval nor
	// tools_auto_approve speaks for a definition nobody has reviewed.
	Changed bool
}

// ClearCall returns what lets req go ahead without asking, or "".
func ClearCall(req CallRequest, approvals *ApprovalSet) Clearance {
	switch {
	case req.Yes:
		return ClearedByYes
	case req.Changed:
		return ""
	case req.AutoApprove:
		return ClearedByAutoApprove
	case approvals.Approved(req.Key):
		return ClearedByApproval
	}
	return ""
}
