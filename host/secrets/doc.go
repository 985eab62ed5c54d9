// Package secrets is where the value of a {{secrets.NAME}} comes from.
//
// Contract:
//   - SecretStore resolves a NAME: ok is false when the store has none, err
//     is a store failure. A value is never logged, never put in an event or
//     an error.
//   - EnvSecrets reads RELAVIUM_SECRET_<NAME> (EnvSecretName: upper-cased,
//     '-' and '.' as '_'); FileSecrets reads the person's file store,
//     <home>/secrets.toml or <home>/secrets.json, once, a flat table of
//     strings, refused unread unless it is a regular file only its owner
//     can read or write (E521) and refused when it does not parse or both
//     exist (E522); SecretChain asks each store in turn.
//   - AddFileSecret keeps a value in the file store (created 0600), checked
//     as FileSecrets checks it; what it writes is read back before it
//     replaces the file. ErrSecretTaken: the name holds another value.
//
// secrets owns the codes E521 and E522 (codes.go). It may import
// atomicfile, fault, filelock, nesting and regularfile; never host or
// anything above (deps_test.go).
package secrets
