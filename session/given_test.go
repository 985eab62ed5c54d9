package session

import "testing"

// A secret typed in the session is found before the environment and the
// secrets file, by the session and by every copy of it (Using, Open).
func TestProvideSecretIsConsultedFirst(t *testing.T) {
	s := New(Options{Home: t.TempDir(), LookupEnv: func(n string) (string, bool) {
		if n == "RELAVIUM_SECRET_KEY" {
			return "from-env", true
		}
		return "", false
	}}, nil)
	c := s.Using(nil, nil)
	if v, ok, err := s.hostOptions().Secrets.Secret("key"); err != nil || !ok || v != "from-env" {
		t.Fatalf("before: %q %v %v", v, ok, err)
	}
	s.ProvideSecret("srv", "key", "typed")
	for _, sess := range []*Session{s, c} {
		if v, ok, err := sess.hostOptions().Secrets.Secret("key"); err != nil || !ok || v != "typed" {
			t.Fatalf("after: %q %v %v", v, ok, err)
		}
	}
	if _, ok, _ := s.hostOptions().Secrets.Secret("other"); ok {
		t.Fatal("a secret no one gave is found")
	}
}
