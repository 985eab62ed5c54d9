package machine

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/filelock"
	"github.com/relavium/relavium/invoke/cli"
)

// Audit log bounds (docs/machine-invoker.md "Audit log").
const (
	AuditRotateBytes = 10 << 20
	AuditKeep        = 3
	AuditLockWait    = 5 * time.Second
)

// Audit decisions.
const (
	DecisionRun          = "run"
	DecisionConfirmation = "confirmation_required"
	DecisionRefused      = "refused"
)

// AuditRecord is one line of machine-audit.jsonl (contract
// cli.machine-audit v1). Field order is the documented key order
// (docs/machine-invoker.md "Audit log").
type AuditRecord struct {
	Time        string          `json:"time"`
	Transport   Transport       `json:"transport"`
	Project     string          `json:"project"`
	Command     string          `json:"command"`
	SideEffect  cli.SideEffect  `json:"side_effect"`
	Decision    string          `json:"decision"`
	ConfirmKind *string         `json:"confirm_kind"`
	RequestID   string          `json:"request_id"`
	Request     RedactedRequest `json:"request"`
	ExitCode    *int            `json:"exit_code"`
	ErrorCode   *fault.Code     `json:"error_code"`
	DurationMS  int64           `json:"duration_ms"`
	// Adhoc marks a request that reached a server of its own naming, not
	// a declared one (--url, or --stdio where a command takes it): null
	// otherwise.
	Adhoc *AuditAdhoc `json:"adhoc"`
}

// AuditAdhoc is what an audit line says of an ad-hoc target: which flag
// named it, and once the command ran, on whose word it was reached (the
// command's own record, data.adhoc: "guard" for a url the network guard
// admitted, "allowed" for a command line approved by its digest — a
// machine client's --stdio is never "typed") and the digest it ran under.
type AuditAdhoc struct {
	Target  string `json:"target"` // "url" or "stdio": the flag that named it
	Consent string `json:"consent,omitempty"`
	Digest  string `json:"digest,omitempty"`
}

// adhocOf is the ad-hoc target req names, nil when it names none; doc is
// the command's envelope when it ran (its data.adhoc completes the mark).
func adhocOf(req *Request, doc []byte) *AuditAdhoc {
	var a *AuditAdhoc
	for _, flag := range []string{"url", "stdio"} {
		if v, ok := req.Flags[flag]; ok && v.Kind == KindString && v.Str != "" {
			a = &AuditAdhoc{Target: flag}
		}
	}
	if a == nil || doc == nil {
		return a
	}
	var env struct {
		Data struct {
			Adhoc *struct {
				Digest  string `json:"digest"`
				Consent string `json:"consent"`
			} `json:"adhoc"`
		} `json:"data"`
	}
	if json.Unmarshal(doc, &env) == nil && env.Data.Adhoc != nil {
		a.Consent, a.Digest = env.Data.Adhoc.Consent, env.Data.Adhoc.Digest
	}
	return a
}

// AuditLog appends records to <home>/logs/machine-audit.jsonl: directory
// 0700, file 0600, one compact line per record, appended under an exclusive
// flock (waiting at most AuditLockWait), rotated at AuditRotateBytes to .1,
// .2, .3. Several processes may share one file.
type AuditLog struct {
	Path string
}

// NewAuditLog returns the audit log under home.
func NewAuditLog(home string) *AuditLog {
	return &AuditLog{Path: filepath.Join(home, "logs", "machine-audit.jsonl")}
}

// auditError is an audit failure; Check's failures become E421 refusals.
type auditError struct {
	op, path string
	err      error
}

func (e *auditError) Error() string { return fmt.Sprintf("audit log %s: %s: %v", e.path, e.op, e.err) }
func (e *auditError) Unwrap() error { return e.err }

// prepareDir creates the log directory at 0700, and narrows an existing one
// that group or others can read.
func (a *AuditLog) prepareDir() error {
	dir := filepath.Dir(a.Path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return &auditError{"create directory", dir, err}
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return &auditError{"stat directory", dir, err}
	}
	if !st.IsDir() {
		return &auditError{"check directory", dir, errors.New("not a directory")}
	}
	if st.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return &auditError{"narrow directory to 0700", dir, err}
		}
	}
	return nil
}

// open opens the log for append: a regular file, never a symlink, 0600.
func (a *AuditLog) open() (*os.File, error) {
	f, err := filelock.OpenNoFollow(a.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, &auditError{"open for append (a regular file, never a symlink)", a.Path, err}
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = errors.New("not a regular file")
		}
		return nil, &auditError{"check file", a.Path, err}
	}
	if st.Mode().Perm() != 0o600 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, &auditError{"narrow file to 0600", a.Path, err}
		}
	}
	return f, nil
}

// Check reports whether the log can be opened for append. The invoker refuses
// every non-read run with E421 when it cannot.
func (a *AuditLog) Check() error {
	if a == nil {
		return errors.New("the server has no audit log")
	}
	if err := a.prepareDir(); err != nil {
		return err
	}
	f, err := a.open()
	if err != nil {
		return err
	}
	return f.Close()
}

// Append writes one record as one line.
func (a *AuditLog) Append(rec AuditRecord) error {
	line, err := cli.MarshalJSON(rec)
	if err != nil {
		return &auditError{"encode record", a.Path, err}
	}
	line = append(line, '\n')
	if err := a.prepareDir(); err != nil {
		return err
	}
	deadline := time.Now().Add(AuditLockWait)
	for {
		f, err := a.open()
		if err != nil {
			return err
		}
		if err := lockWithin(f, deadline); err != nil {
			f.Close()
			return &auditError{"lock", a.Path, err}
		}
		// Another writer may have rotated the file between our open and our
		// lock: the path then names a new file, and we start again.
		fst, ferr := f.Stat()
		pst, perr := os.Lstat(a.Path)
		if ferr != nil || perr != nil || !os.SameFile(fst, pst) {
			f.Close()
			continue
		}
		if fst.Size() > 0 && fst.Size()+int64(len(line)) > AuditRotateBytes {
			err := a.rotate()
			f.Close() // releases the lock on what is now .1
			if err != nil {
				return err
			}
			continue
		}
		_, werr := f.Write(line)
		cerr := f.Close() // releases the lock
		if werr != nil {
			return &auditError{"write", a.Path, werr}
		}
		if cerr != nil {
			return &auditError{"close", a.Path, cerr}
		}
		return nil
	}
}

// rotate shifts .2->.3, .1->.2, log->.1 (the old .3 is dropped). The caller
// holds the lock on the current file.
func (a *AuditLog) rotate() error {
	for i := AuditKeep - 1; i >= 1; i-- {
		from := a.Path + "." + strconv.Itoa(i)
		if err := os.Rename(from, a.Path+"."+strconv.Itoa(i+1)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return &auditError{"rotate", from, err}
		}
	}
	if err := os.Rename(a.Path, a.Path+".1"); err != nil {
		return &auditError{"rotate", a.Path, err}
	}
	return nil
}

// lockWithin takes an exclusive lock (package filelock), polling (1 ms, backing off to 8 ms)
// until deadline.
func lockWithin(f *os.File, deadline time.Time) error {
	pause := time.Millisecond
	for {
		busy, err := filelock.TryLock(f, true)
		if err != nil {
			return err
		}
		if !busy {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("another process held the lock for %s", AuditLockWait)
		}
		time.Sleep(pause)
		if pause < 8*time.Millisecond {
			pause *= 2
		}
	}
}

// auditTime renders t as RFC 3339 UTC with milliseconds.
func auditTime(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
}
