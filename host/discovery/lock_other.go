//go:build !unix

package discovery

// lockFile is a no-op where flock does not exist: the atomic rename still
// guarantees a whole store, but two concurrent processes may each keep
// only their own update.
func lockFile(string) (func(), error) { return func() {}, nil }
