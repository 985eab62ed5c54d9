package secrets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

func TestEnvSecrets(t *testing.T) {
	env := map[string]string{"RELAVIUM_SECRET_GITHUB_TOKEN": "gh", "RELAVIUM_SECRET_A_B_C": "abc"}
	s := EnvSecrets{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }}
	for name, want := range map[string]string{"github_token": "gh", "github-token": "gh", "a.b-c": "abc"} {
		if v, ok, err := s.Secret(name); err != nil || !ok || v != want {
			t.Errorf("%s = %q %v %v", name, v, ok, err)
		}
	}
	if _, ok, _ := s.Secret("nope"); ok {
		t.Error("a missing secret was found")
	}
}

func TestFileSecrets(t *testing.T) {
	const secret = "very-secret-value-123"
	write := func(t *testing.T, home, name, body string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(home, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("toml 0600", func(t *testing.T) {
		home := t.TempDir()
		write(t, home, "secrets.toml", "github_token = \""+secret+"\"\n", 0o600)
		v, ok, err := NewFileSecrets(home).Secret("github_token")
		if err != nil || !ok || v != secret {
			t.Errorf("= %q %v %v", v, ok, err)
		}
	})
	t.Run("json 0400", func(t *testing.T) {
		home := t.TempDir()
		write(t, home, "secrets.json", `{"k":"`+secret+`"}`, 0o400)
		if v, ok, err := NewFileSecrets(home).Secret("k"); err != nil || !ok || v != secret {
			t.Errorf("= %q %v %v", v, ok, err)
		}
	})
	t.Run("absent", func(t *testing.T) {
		if _, ok, err := NewFileSecrets(t.TempDir()).Secret("k"); ok || err != nil {
			t.Errorf("%v %v", ok, err)
		}
	})
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, home string)
		code  fault.Code
		says  string
	}{
		{"group readable", func(t *testing.T, home string) { write(t, home, "secrets.toml", "k = \"v\"\n", 0o640) }, CodeSecretFileUnsafe, "chmod 600"},
		{"other readable", func(t *testing.T, home string) { write(t, home, "secrets.json", `{"k":"v"}`, 0o604) }, CodeSecretFileUnsafe, "chmod 600"},
		{"symlink", func(t *testing.T, home string) {
			write(t, home, "real.toml", "k = \"v\"\n", 0o600)
			if err := os.Symlink(filepath.Join(home, "real.toml"), filepath.Join(home, "secrets.toml")); err != nil {
				t.Fatal(err)
			}
		}, CodeSecretFileUnsafe, "symlink"},
		{"directory", func(t *testing.T, home string) {
			if err := os.Mkdir(filepath.Join(home, "secrets.toml"), 0o700); err != nil {
				t.Fatal(err)
			}
		}, CodeSecretFileUnsafe, "not a regular file"},
		{"both files", func(t *testing.T, home string) {
			write(t, home, "secrets.toml", "k = \"v\"\n", 0o600)
			write(t, home, "secrets.json", `{"k":"v"}`, 0o600)
		}, CodeSecretFileBad, "keep one"},
		{"not a flat table", func(t *testing.T, home string) {
			write(t, home, "secrets.toml", "k = \""+secret+"\"\n[nested]\nx = 1\n", 0o600)
		}, CodeSecretFileBad, "flat table"},
		{"syntax error", func(t *testing.T, home string) {
			write(t, home, "secrets.toml", "k = \""+secret+"\n", 0o600)
		}, CodeSecretFileBad, "line"},
		{"toml nested 100000 deep", func(t *testing.T, home string) {
			write(t, home, "secrets.toml", "k = \""+secret+"\"\nx = "+strings.Repeat("[", 100000)+"\n", 0o600)
		}, CodeSecretFileBad, "nesting deeper than 64 levels (line 2, column 68)"},
		{"json nested 100000 deep", func(t *testing.T, home string) {
			write(t, home, "secrets.json", `{"k":"`+secret+`","x":`+strings.Repeat("[", 100000), 0o600)
		}, CodeSecretFileBad, "nesting deeper than 64 levels"},
		{"larger than 1 MiB", func(t *testing.T, home string) {
			write(t, home, "secrets.toml", "k = \""+secret+strings.Repeat("x", 1<<20)+"\"\n", 0o600)
		}, CodeSecretFileBad, "larger than 1048576 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			tc.setup(t, home)
			_, _, err := NewFileSecrets(home).Secret("k")
			if fault.CodeOf(err, "") != tc.code || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v, want %s mentioning %q", err, tc.code, tc.says)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error quotes the secret: %v", err)
			}
			if e, ok := err.(*fault.Error); !ok || e.ExitCode() != fault.ExitUsage {
				t.Errorf("exit code of %v is not 2", err)
			}
		})
	}
}

func TestSecretChainOrder(t *testing.T) {
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "secrets.toml"), []byte("a = \"file\"\nb = \"file\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	chain := SecretChain{EnvSecrets{LookupEnv: func(k string) (string, bool) {
		if k == "RELAVIUM_SECRET_A" {
			return "env", true
		}
		return "", false
	}}, NewFileSecrets(home)}
	if v, _, _ := chain.Secret("a"); v != "env" {
		t.Errorf("a = %q, want the environment first", v)
	}
	if v, _, _ := chain.Secret("b"); v != "file" {
		t.Errorf("b = %q", v)
	}
}
