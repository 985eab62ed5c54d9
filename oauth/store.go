package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/regularfile"
)

// Record is one server identity's sign-in: the server url and the issuer
// that signed it in, the client identity used, the scopes and the tokens.
// Its token fields are secrets: nothing but the store ever reads them out
// of it for display, and no String or JSON view of a record leaves the
// store (auth ls shows a Summary).
type Record struct {
	Server       string    `json:"server"` // the declared name at sign-in (shown; the identity is url + issuer)
	URL          string    `json:"url"`
	Issuer       string    `json:"issuer"`
	Resource     string    `json:"resource"`
	TokenURL     string    `json:"token_url"`
	ClientID     string    `json:"client_id"`
	ClientSecret string    `json:"client_secret,omitempty"`
	TokenAuth    string    `json:"token_auth"` // client_secret_basic | client_secret_post | none
	Scopes       []string  `json:"scopes,omitempty"`
	Wanted       []string  `json:"wanted,omitempty"` // scopes a step-up asked for that no sign-in has granted yet
	AccessToken  string    `json:"access_token,omitempty"`
	RefreshToken string    `json:"refresh_token,omitempty"`
	TokenType    string    `json:"token_type,omitempty"`
	Expiry       time.Time `json:"expiry,omitzero"`
	Updated      time.Time `json:"updated"`
}

// Summary is what may be shown of a record: never a token or a secret. A
// record that cannot be read is listed by its file with Unreadable saying
// why (and nothing else of it is known).
type Summary struct {
	Server     string    `json:"server"`
	URL        string    `json:"url"`
	Issuer     string    `json:"issuer"`
	Scopes     []string  `json:"scopes"`
	Expiry     time.Time `json:"expiry,omitzero"`
	Refresh    bool      `json:"refresh_token"` // a refresh token is held (not its value)
	Updated    time.Time `json:"updated"`
	Wanted     []string  `json:"wanted,omitempty"`
	FileName   string    `json:"file"`
	Unreadable string    `json:"unreadable,omitempty"`
}

// Store is <home>/oauth: a 0700 directory of 0600 files, one per server
// identity (url + issuer), each replaced atomically. A file's name starts
// with a digest of the server's url, so reading one server's sign-in reads
// only that server's files: a record that cannot be read fails its own
// server, never another's.
type Store struct{ Dir string }

// NewStore returns the store of a relavium home.
func NewStore(home string) *Store { return &Store{Dir: filepath.Join(home, "oauth")} }

// fileName is the identity's file: the url's digest, then the identity's,
// so nothing of the url shows in a directory listing and a server's files
// are found by their prefix.
func fileName(url, issuer string) string {
	h := sha256.Sum256([]byte(url + "\n" + strings.TrimSuffix(issuer, "/")))
	return urlKey(url) + hex.EncodeToString(h[:8]) + ".json"
}

// urlKey is the prefix of every file of the server at url.
func urlKey(url string) string {
	h := sha256.Sum256([]byte(url))
	return hex.EncodeToString(h[:8]) + "-"
}

// legacyName is the file an earlier relavium wrote for the identity: one
// digest of url and issuer. Such a file is read while it lasts (by its url
// field, so an unreadable one belongs to no server and fails none) and is
// replaced by the identity's next Save.
func legacyName(url, issuer string) string {
	h := sha256.Sum256([]byte(url + "\n" + strings.TrimSuffix(issuer, "/")))
	return hex.EncodeToString(h[:16]) + ".json"
}

func isLegacy(name string) bool { return len(name) == 37 && !strings.Contains(name, "-") }

// dir checks (and with create, makes) the store's directory: a real
// directory of the current user that group and others cannot reach.
func (s *Store) dir(create bool) (bool, error) {
	st, err := os.Lstat(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		if !create {
			return false, nil
		}
		if err := os.MkdirAll(s.Dir, 0o700); err != nil {
			return false, wrapErr(CodeStore, err, "cannot create the token store %s", s.Dir)
		}
		return true, os.Chmod(s.Dir, 0o700)
	}
	if err != nil {
		return false, wrapErr(CodeStore, err, "cannot read the token store %s", s.Dir)
	}
	if !st.IsDir() || st.Mode()&fs.ModeSymlink != 0 {
		return false, newErr(CodeStore, "the token store %s is not a directory (a symlink or a file is refused)", s.Dir)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return false, newErr(CodeStore, "the token store %s is reachable by group or others (mode %04o); fix it with chmod 700 %s", s.Dir, st.Mode().Perm(), s.Dir)
	}
	return true, nil
}

// Save writes rec (stamped now) as its identity's file, 0600, atomically,
// after checking it by the bounds read checks: a record that would not read
// back is never written (E863; the flow refuses what a server sent out of
// bounds before this, E868).
func (s *Store) Save(rec *Record, now time.Time) error {
	if err := rec.bounds(); err != nil {
		return wrapErr(CodeStore, err, "a token record was not written: it would not read back")
	}
	if _, err := s.dir(true); err != nil {
		return err
	}
	rec.Updated = now.UTC()
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return wrapErr(CodeStore, err, "cannot encode a token record")
	}
	if b = append(b, '\n'); len(b) > maxRecord {
		return newErr(CodeStore, "a token record was not written: it would be %d bytes, over the %s a record may hold", len(b), regularfile.Size(maxRecord))
	}
	path := filepath.Join(s.Dir, fileName(rec.URL, rec.Issuer))
	if err := atomicfile.Write(path, b); err != nil {
		return wrapErr(CodeStore, err, "cannot write %s", path)
	}
	if err := os.Remove(filepath.Join(s.Dir, legacyName(rec.URL, rec.Issuer))); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return wrapErr(CodeStore, err, "cannot remove the earlier record of this sign-in")
	}
	return nil
}

// names lists the store's record files (never a dot file), sorted; nil
// when the store does not exist.
func (s *Store) names() ([]string, error) {
	ok, err := s.dir(false)
	if err != nil || !ok {
		return nil, err
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, wrapErr(CodeStore, err, "cannot list the token store %s", s.Dir)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// UnreadableError is a record file that cannot be read: Why says what is
// wrong with it (never a value from it).
type UnreadableError struct {
	Path, Why string
}

func (e *UnreadableError) Error() string { return e.Path + ": " + e.Why }

// read reads one record file: a regular 0600 file, at most maxRecord, in
// the bounds Save checks.
func (s *Store) read(name string) (*Record, error) {
	path := filepath.Join(s.Dir, name)
	b, st, err := regularfile.Read(path, maxRecord, regularfile.Options{NoFollow: true})
	var tl *regularfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, &UnreadableError{path, "it is over the " + regularfile.Size(maxRecord) + " a record may hold"}
	case err != nil:
		return nil, &UnreadableError{path, err.Error()}
	case st.Mode().Perm()&0o077 != 0:
		return nil, &UnreadableError{path, fmt.Sprintf("group or others can reach it (mode %04o)", st.Mode().Perm())}
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, &UnreadableError{path, "it does not parse as a token record"}
	}
	if err := r.bounds(); err != nil {
		return nil, &UnreadableError{path, err.Error()}
	}
	return &r, nil
}

// Find returns the newest record of the server at url, or nil. Only that
// server's files are read (and an earlier relavium's, by their url): a
// record of this server that cannot be read is E863 naming the file (the
// handler adds the server and its fix), another server's never matters.
func (s *Store) Find(url string) (*Record, error) {
	names, err := s.names()
	if err != nil {
		return nil, err
	}
	var best *Record
	legacy := 0
	for _, name := range names {
		own := strings.HasPrefix(name, urlKey(url))
		if !own {
			if !isLegacy(name) || legacy == maxRecords {
				continue
			}
			legacy++
		}
		r, err := s.read(name)
		if err != nil {
			if own {
				return nil, wrapErr(CodeStore, err, "the stored sign-in of %s cannot be read", redact(url))
			}
			continue
		}
		if r.URL == url && (best == nil || r.Updated.After(best.Updated)) {
			best = r
		}
	}
	return best, nil
}

// List summarises every record, newest first; a record that cannot be
// read is listed (last) by its file and why.
func (s *Store) List() ([]Summary, error) {
	names, err := s.names()
	if err != nil {
		return nil, err
	}
	if len(names) > maxRecords {
		return nil, newErr(CodeStore, "the token store %s holds more than %d records", s.Dir, maxRecords)
	}
	var out, bad []Summary
	for _, name := range names {
		r, err := s.read(name)
		if u := (*UnreadableError)(nil); errors.As(err, &u) {
			bad = append(bad, Summary{FileName: name, Unreadable: u.Why})
			continue
		}
		out = append(out, Summary{Server: r.Server, URL: r.URL, Issuer: r.Issuer, Scopes: r.Scopes, Expiry: r.Expiry,
			Refresh: r.RefreshToken != "", Updated: r.Updated, Wanted: r.Wanted, FileName: name})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Updated.After(out[b].Updated) })
	return append(out, bad...), nil
}

// Remove deletes every record of the server at url, whether or not it can
// be read (so auth logout is the fix for one that cannot), and returns how
// many.
func (s *Store) Remove(url string) (int, error) {
	names, err := s.names()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, name := range names {
		if !strings.HasPrefix(name, urlKey(url)) {
			if !isLegacy(name) {
				continue
			}
			if r, err := s.read(name); err != nil || r.URL != url {
				continue
			}
		}
		if err := os.Remove(filepath.Join(s.Dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, wrapErr(CodeStore, err, "cannot remove %s", name)
		}
		n++
	}
	return n, nil
}
