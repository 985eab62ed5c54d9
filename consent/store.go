package consent

import (
	"path/filepath"
	"time"
)

// StoreFile is the grant store's file name inside the relavium home.
const StoreFile = "mcp-consent.ndjson"

// maxStoreBytes bounds the grant store file (about 800 000 grant lines): a
// larger file fails the fold closed. The fold's memory does not depend on
// it (it reads line by line); it bounds the time one fold may take.
const maxStoreBytes = 256 << 20

// Store is the append-only grant store <home>/mcp-consent.ndjson: a
// lineFile of grants and revocation tombstones (see lineFile for the
// locking, permission and size rules). A Store holds no open file between
// calls and is safe for concurrent use.
type Store struct {
	lineFile
}

// Open returns the store under home. Nothing is touched until a read or write.
func Open(home string) *Store {
	return &Store{lineFile{home: home, path: filepath.Join(home, StoreFile), name: "grant store",
		refusedCode: CodeStoreRefused, ioCode: CodeStoreIO,
		maxLine: maxLineBytes, maxBytes: maxStoreBytes, lockWait: defaultLockWait}}
}

// Path is the store's file path.
func (s *Store) Path() string { return s.path }

// Grant appends a grant line for r: its digest, and bounded comparison
// metadata (command, args, env names and kinds — never values — and cwd).
func (s *Store) Grant(r *Resolved, now time.Time) error {
	line, err := encodeGrant(r, now)
	if err != nil {
		return err
	}
	return s.appendLine(line)
}

// GrantBinding appends a secret binding's grant for b approved for
// headers: its digest, the secret's name, the origin and the header names
// (never a value).
func (s *Store) GrantBinding(b *Binding, headers []string, now time.Time) error {
	encode := encodeBinding
	if b.Local {
		encode = func(b *Binding, _ []string, now time.Time) ([]byte, error) { return encodeLocal(b, now) }
	}
	if b.Helper != nil {
		encode = func(b *Binding, _ []string, now time.Time) ([]byte, error) { return encodeHelper(b, now) }
	}
	line, err := encode(b, headers, now)
	if err != nil {
		return err
	}
	return s.appendLine(line)
}

// Revoke appends a revocation tombstone for digest.
func (s *Store) Revoke(digest string, now time.Time) error {
	line, err := encodeRevoke(digest, now)
	if err != nil {
		return err
	}
	return s.appendLine(line)
}
