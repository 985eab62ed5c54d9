package oauth

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/relavium/relavium/atomicfile"
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

// Summary is what may be shown of a record: never a token or a secret.
type Summary struct {
	Server   string    `json:"server"`
	URL      string    `json:"url"`
	Issuer   string    `json:"issuer"`
	Scopes   []string  `json:"scopes"`
	Expiry   time.Time `json:"expiry,omitzero"`
	Refresh  bool      `json:"refresh_token"` // a refresh token is held (not its value)
	Updated  time.Time `json:"updated"`
	Wanted   []string  `json:"wanted,omitempty"`
	FileName string    `json:"file"`
}

// Store is <home>/oauth: a 0700 directory of 0600 files, one per server
// identity (url + issuer), each replaced atomically.
type Store struct{ Dir string }

// NewStore returns the store of a relavium home.
func NewStore(home string) *Store { return &Store{Dir: filepath.Join(home, "oauth")} }

// Bounds of what the store reads: a record is small, a home holds few.
const (
	maxRecord  = 256 << 10
	maxRecords = 1024
)

// fileName is the identity's file: a digest, so nothing of the url shows
// in a directory listing.
func fileName(url, issuer string) string {
	h := sha256.Sum256([]byte(url + "\n" + strings.TrimSuffix(issuer, "/")))
	return hex.EncodeToString(h[:16]) + ".json"
}

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

// Save writes rec (stamped now) as its identity's file, 0600, atomically.
func (s *Store) Save(rec *Record, now time.Time) error {
	if _, err := s.dir(true); err != nil {
		return err
	}
	rec.Updated = now.UTC()
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return wrapErr(CodeStore, err, "cannot encode a token record")
	}
	path := filepath.Join(s.Dir, fileName(rec.URL, rec.Issuer))
	if err := atomicfile.Write(path, append(b, '\n')); err != nil {
		return wrapErr(CodeStore, err, "cannot write %s", path)
	}
	return nil
}

// records reads every record of the store, newest first.
func (s *Store) records() ([]*Record, []string, error) {
	ok, err := s.dir(false)
	if err != nil || !ok {
		return nil, nil, err
	}
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, nil, wrapErr(CodeStore, err, "cannot list the token store %s", s.Dir)
	}
	var recs []*Record
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if len(recs) == maxRecords {
			return nil, nil, newErr(CodeStore, "the token store %s holds more than %d records", s.Dir, maxRecords)
		}
		r, err := s.read(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
		names = append(names, e.Name())
	}
	idx := make([]int, len(recs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return recs[idx[a]].Updated.After(recs[idx[b]].Updated) })
	outR, outN := make([]*Record, len(recs)), make([]string, len(recs))
	for i, j := range idx {
		outR[i], outN[i] = recs[j], names[j]
	}
	return outR, outN, nil
}

// read reads one record file: a regular 0600 file, at most 256 KiB.
func (s *Store) read(path string) (*Record, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return nil, wrapErr(CodeStore, err, "cannot open %s", path)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, wrapErr(CodeStore, err, "cannot read %s", path)
	}
	if !st.Mode().IsRegular() || st.Mode().Perm()&0o077 != 0 {
		return nil, newErr(CodeStore, "%s is not a regular file only you can read (mode %04o); remove it and sign in again", path, st.Mode().Perm())
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return nil, wrapErr(CodeStore, err, "cannot read %s", path)
	}
	if len(b) > maxRecord {
		return nil, newErr(CodeStore, "%s is over 256 KiB; remove it and sign in again", path)
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, newErr(CodeStore, "%s does not parse as a token record; remove it and sign in again", path)
	}
	return &r, nil
}

// Find returns the newest record of the server at url, or nil.
func (s *Store) Find(url string) (*Record, error) {
	recs, _, err := s.records()
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		if r.URL == url {
			return r, nil
		}
	}
	return nil, nil
}

// List summarises every record, newest first.
func (s *Store) List() ([]Summary, error) {
	recs, names, err := s.records()
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(recs))
	for i, r := range recs {
		out = append(out, Summary{Server: r.Server, URL: r.URL, Issuer: r.Issuer, Scopes: r.Scopes, Expiry: r.Expiry,
			Refresh: r.RefreshToken != "", Updated: r.Updated, Wanted: r.Wanted, FileName: names[i]})
	}
	return out, nil
}

// Remove deletes every record of the server at url and returns how many.
func (s *Store) Remove(url string) (int, error) {
	recs, names, err := s.records()
	if err != nil {
		return 0, err
	}
	n := 0
	for i, r := range recs {
		if r.URL != url {
			continue
		}
		if err := os.Remove(filepath.Join(s.Dir, names[i])); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return n, wrapErr(CodeStore, err, "cannot remove %s", names[i])
		}
		n++
	}
	return n, nil
}
