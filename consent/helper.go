package consent

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"time"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fault"
)

// A headers helper is a local program a network server's declaration
// names (config.toml's headers_helper, Claude Code's headersHelper): a
// shell line relavium runs before each connect, whose output becomes
// request headers sent to the server's origin. It is consented to like any
// program a project file names, and like a secret it is bound to where
// its output goes: a Binding with Helper set, digest over
// {kind:"headers-helper", line, shell, cwd, origin} — the line as written
// (its {{env.VAR}} references, never a value), the absolute shell that
// runs it, the directory it runs in and the origin its headers go to — in
// the same grant store, decided by the same Decider (DecideBindings),
// asked by the same Asker and refused headless by the same PendingError
// (E301: a local program waits for consent). Being a local program, it is
// approved for one run by --allow-mcp-stdio DIGEST, as a stdio server is.
// Another line, shell, directory or origin is another digest and asks
// again.

// HelperKind is the kind a headers helper's digest names.
const HelperKind = "headers-helper"

// Helper is what a headers helper runs: Shell -c Line in Cwd.
type Helper struct {
	Line  string `json:"line"`  // the shell line as written ({{env.VAR}} references kept)
	Shell string `json:"shell"` // the absolute shell that runs it
	Cwd   string `json:"cwd"`   // the directory it runs in
}

// NewHeadersHelper builds the headers-helper decision of server, declared
// at source (file:line:col): the shell line runs in cwd through the shell
// sh (resolved on ambientPATH to an absolute path), and its headers go to
// the origin of rawURL.
func NewHeadersHelper(server, source, line, sh, cwd, rawURL, ambientPATH string) (*Binding, error) {
	origin, err := Origin(rawURL)
	if err != nil {
		return nil, err
	}
	shell, err := resolveCommand("server "+quoteArg(server)+" headers_helper", sh, cwd, ambientPATH)
	if err != nil {
		return nil, err
	}
	h := &Helper{Line: line, Shell: shell, Cwd: cwd}
	digest, err := HelperDigest(h, origin)
	if err != nil {
		return nil, err
	}
	return &Binding{Server: server, Origin: origin, Digest: digest, Helper: h, Source: source}, nil
}

// HelperDigest is the v1 digest of a headers helper: "v1:" and the
// lowercase-hex SHA-256 of the canonical JSON of exactly
// {kind:"headers-helper", line, shell, cwd, origin}. It never equals a
// stdio digest, a secret binding's or a local endpoint's (the objects
// differ in their keys or kind), and holds no value.
func HelperDigest(h *Helper, origin string) (string, error) {
	b, err := canonjson.Marshal(map[string]any{"kind": HelperKind, "line": h.Line, "shell": h.Shell, "cwd": h.Cwd, "origin": origin})
	if err != nil {
		return "", &Error{ErrCode: CodeNotCanonical, Msg: err.Error(), Exit: fault.ExitUsage}
	}
	sum := sha256.Sum256(b)
	return DigestPrefix + hex.EncodeToString(sum[:]), nil
}

// WriteHelperDetails writes what a headers-helper approval shows, one
// labelled line each: where it is declared, the program that runs (the
// exact line, through which shell, where), where its output goes, and the
// digest.
func WriteHelperDetails(w io.Writer, b *Binding, indent string) {
	if b.Source != "" {
		fmt.Fprintf(w, "%sfrom     %s\n", indent, quoteArg(b.Source))
	}
	fmt.Fprintf(w, "%sruns     %s\n", indent, commandLine(b.Helper.Shell, []string{"-c", b.Helper.Line}))
	fmt.Fprintf(w, "%scwd      %s\n", indent, quoteArg(b.Helper.Cwd))
	fmt.Fprintf(w, "%ssends    its output as request headers to %s (values not shown)\n", indent, quoteArg(b.Origin))
	fmt.Fprintf(w, "%snote     %s\n", indent, HelperNote)
	fmt.Fprintf(w, "%sdigest   %s\n", indent, b.Digest)
}

// HelperNote is what every surface says of a helper's reach: it runs as
// the person, outside the stdio sandbox (docs/remote-servers.md says why).
const HelperNote = "it runs a program as you (not sandboxed), before each connect, with a clean environment and 10 s to answer"

// HelperDeniedError is what a host reports for a server whose headers
// helper the person denied.
func HelperDeniedError(b *Binding) error {
	return &Error{ErrCode: CodeDenied, Msg: fmt.Sprintf("server %s: running its headers helper was denied (%s)", quoteArg(b.Server), b.Digest)}
}

// IsHelper reports whether g approves a headers helper (a grant line with
// an origin and a program).
func (g *Grant) IsHelper() bool { return g.Secret == "" && g.Origin != "" && g.Command != "" }

// encodeHelper builds the grant line of a headers helper: a stdio grant
// line (command: the shell, args: -c and the line, cwd) with one additive
// field, origin, and no secret.
func encodeHelper(b *Binding, now time.Time) ([]byte, error) {
	if !ValidDigest(b.Digest) {
		return nil, CheckDigest("grant", b.Digest)
	}
	if len(b.Origin) > maxMetaPath {
		return nil, usage(CodeBadBinding, "an origin over %d bytes cannot be remembered", maxMetaPath)
	}
	return marshalLine(localLine{
		grantLine: grantLine{V: 1, Digest: b.Digest, Server: bound(b.Server, maxMetaPath), Command: bound(b.Helper.Shell, maxMetaPath),
			Args: []string{"-c", bound(b.Helper.Line, maxMetaArg)}, EnvNames: []string{}, Cwd: bound(b.Helper.Cwd, maxMetaPath),
			GrantedAt: now.UTC().Format(timeLayout)},
		Origin: b.Origin,
	})
}
