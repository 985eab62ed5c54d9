package consent

// CheckEnv refuses a declared environment entry whose name is on the shared
// denylist or whose value begins "() {". STUB: the consent issue owns it.
func CheckEnv(name, value string) error {
	return nil
}
