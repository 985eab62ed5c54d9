package inbound

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/filelock"
	"github.com/relavium/relavium/regularfile"
)

// Token sources (docs/machine-invoker.md "Machine token").
const (
	TokenFromEnv       = "env"
	TokenFromFile      = "file"
	TokenFromGenerated = "generated"
)

// EnvMCPToken names the environment variable holding the bearer token.
const EnvMCPToken = "RELAVIUM_MCP_TOKEN"

// tokenFileName is the machine token's file under the relavium home.
const tokenFileName = "mcp-token"

// maxTokenFileBytes bounds what is read from the token file.
const maxTokenFileBytes = 4096

// Token is the bearer token of relavium's own HTTP servers (mcp serve's sse
// and http transports, replay --transport http). Only its hash is
// kept; the value is never printed.
type Token struct {
	Source string
	Path   string // the file, for source file and generated
	sum    [32]byte
	// id names this token as a bearer identity inside the process (sessions
	// and confirmations are bound to it): random, never derived from the
	// value, never printed.
	id string
}

// Describe says where the token is, for the serve banner: never the value.
func (t *Token) Describe() string {
	switch t.Source {
	case TokenFromEnv:
		return "bearer token from $" + EnvMCPToken
	case TokenFromGenerated:
		return "bearer token generated into " + t.Path
	}
	return "bearer token from " + t.Path
}

func newToken(source, path, value string) *Token {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &Token{Source: source, Path: path, sum: sha256.Sum256([]byte(value)), id: hex.EncodeToString(b[:])}
}

// Check compares a presented value with the token. Both sides are hashed
// first, so the comparison does not depend on the token's length.
func (t *Token) Check(presented string) bool {
	got := sha256.Sum256([]byte(presented))
	return subtle.ConstantTimeCompare(got[:], t.sum[:]) == 1
}

// CheckRequest reads `Authorization: Bearer <token>`.
func (t *Token) CheckRequest(r *http.Request) bool {
	h := r.Header.Get("Authorization")
	scheme, value, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	return t.Check(strings.TrimSpace(value))
}

func tokenErr(format string, a ...any) *fault.Error {
	return &fault.Error{ErrCode: CodeToken, Msg: fmt.Sprintf(format, a...), Exit: fault.ExitUsage}
}

// ExistingToken returns the configured token: RELAVIUM_MCP_TOKEN, else the
// file <home>/mcp-token (a regular non-symlink file, 0600, not empty). It
// returns nil, nil when neither exists. A group- or other-readable file, a
// symlink or an empty file is E426.
func ExistingToken(home string, lookup func(string) (string, bool)) (*Token, error) {
	if lookup != nil {
		if v, ok := lookup(EnvMCPToken); ok {
			if strings.TrimSpace(v) == "" {
				return nil, tokenErr("%s is set but empty", EnvMCPToken)
			}
			return newToken(TokenFromEnv, "", strings.TrimSpace(v)), nil
		}
	}
	path := filepath.Join(home, tokenFileName)
	b, st, err := regularfile.Read(path, maxTokenFileBytes, regularfile.Options{NoFollow: true})
	var nr *regularfile.NotRegularError
	var tl *regularfile.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case errors.As(err, &nr):
		return nil, tokenErr("%s is not a regular file", path)
	case errors.As(err, &tl):
		return nil, tokenErr("%s is larger than %d bytes", path, maxTokenFileBytes)
	case err != nil:
		if st, lerr := os.Lstat(path); lerr == nil && st.Mode()&fs.ModeSymlink != 0 {
			return nil, tokenErr("%s is a symlink; the machine token must be a regular file (replace it with a file and chmod 600 %s)", path, path)
		}
		return nil, &fault.Error{ErrCode: CodeToken, Msg: "cannot read the machine token " + path, Cause: err, Exit: fault.ExitUsage}
	case filelock.ModeBitsMeaningful && st.Mode().Perm()&0o077 != 0:
		return nil, tokenErr("%s can be read by group or others (mode %04o); run: chmod 600 %s", path, st.Mode().Perm(), path)
	}
	v := string(bytes.TrimSpace(b))
	if v == "" {
		return nil, tokenErr("%s is empty; delete it to have a new token generated, or write one", path)
	}
	return newToken(TokenFromFile, path, v), nil
}

// GenerateToken creates <home> at 0700 when missing (narrowing an existing
// one, never widening; refusing when it stays group/other-writable), then
// writes 32 random bytes as 64 hex characters to <home>/mcp-token at 0600
// with O_EXCL. The value is never printed.
func GenerateToken(home string) (*Token, error) {
	if err := os.MkdirAll(home, 0o700); err != nil {
		return nil, &fault.Error{ErrCode: CodeToken, Msg: "cannot create " + home, Cause: err, Exit: fault.ExitUsage}
	}
	st, err := os.Stat(home)
	if err != nil {
		return nil, &fault.Error{ErrCode: CodeToken, Msg: "cannot read " + home, Cause: err, Exit: fault.ExitUsage}
	}
	if st.Mode().Perm()&0o077 != 0 {
		if cerr := os.Chmod(home, st.Mode().Perm()&0o700); cerr != nil && st.Mode().Perm()&0o022 != 0 {
			return nil, &fault.Error{ErrCode: CodeToken, Msg: fmt.Sprintf("%s is writable by group or others and cannot be narrowed to 0700", home), Cause: cerr, Exit: fault.ExitUsage}
		}
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, &fault.Error{ErrCode: CodeToken, Msg: "cannot generate a token", Cause: err, Exit: fault.ExitFailure}
	}
	value := hex.EncodeToString(b[:])
	path := filepath.Join(home, tokenFileName)
	f, err := filelock.OpenNoFollow(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, &fault.Error{ErrCode: CodeToken, Msg: "cannot create the machine token " + path, Cause: err, Exit: fault.ExitUsage}
	}
	_, werr := f.WriteString(value + "\n")
	cerr := f.Close()
	if werr != nil || cerr != nil {
		_ = os.Remove(path)
		return nil, &fault.Error{ErrCode: CodeToken, Msg: "cannot write the machine token " + path, Cause: errors.Join(werr, cerr), Exit: fault.ExitUsage}
	}
	return newToken(TokenFromGenerated, path, value), nil
}

// ID names this token as a bearer identity inside the process (what
// sessions and confirmations are bound to): random, never derived from the
// value, never printed.
func (t *Token) ID() string { return t.id }
