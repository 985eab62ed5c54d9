package inbound

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/relavium/relavium/fault"
)

func tokenLookup(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestTokenSources(t *testing.T) {
	home := t.TempDir()
	if tok, err := ExistingToken(home, tokenLookup(nil)); tok != nil || err != nil {
		t.Fatalf("no token configured: %v %v", tok, err)
	}
	path := filepath.Join(home, "mcp-token")
	if err := os.WriteFile(path, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tok, err := ExistingToken(home, tokenLookup(map[string]string{EnvMCPToken: "from-env"}))
	if err != nil || tok.Source != TokenFromEnv || !tok.Check("from-env") || tok.Check("from-file") {
		t.Fatalf("env first: %+v %v", tok, err)
	}
	tok, err = ExistingToken(home, tokenLookup(nil))
	if err != nil || tok.Source != TokenFromFile || !tok.Check("from-file") || tok.Check("from-file\n") || tok.Check("") {
		t.Fatalf("file: %+v %v", tok, err)
	}
}

func TestTokenFileRefusals(t *testing.T) {
	cases := map[string]func(t *testing.T, path string){
		"group readable": func(t *testing.T, path string) { _ = os.WriteFile(path, []byte("x"), 0o640); _ = os.Chmod(path, 0o640) },
		"world readable": func(t *testing.T, path string) { _ = os.WriteFile(path, []byte("x"), 0o604); _ = os.Chmod(path, 0o604) },
		"empty":          func(t *testing.T, path string) { _ = os.WriteFile(path, []byte("  \n"), 0o600) },
		"symlink": func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "real")
			_ = os.WriteFile(target, []byte("x"), 0o600)
			_ = os.Symlink(target, path)
		},
		"directory": func(t *testing.T, path string) { _ = os.Mkdir(path, 0o700) },
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			path := filepath.Join(home, "mcp-token")
			setup(t, path)
			_, err := ExistingToken(home, tokenLookup(nil))
			if fault.CodeOf(err, "") != CodeToken || fault.ExitOf(err) != fault.ExitUsage {
				t.Fatalf("want E426 exit 2, got %v", err)
			}
			if strings.HasSuffix(name, "readable") && (!strings.Contains(err.Error(), "chmod 600 "+path)) {
				t.Fatalf("message must name the path and chmod 600: %v", err)
			}
		})
	}
	if _, err := ExistingToken(t.TempDir(), tokenLookup(map[string]string{EnvMCPToken: ""})); fault.CodeOf(err, "") != CodeToken {
		t.Fatalf("empty env token: %v", err)
	}
}

func TestGenerateToken(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	tok, err := GenerateToken(home)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(tok.Path)
	value := strings.TrimSpace(string(b))
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(value) || !tok.Check(value) || tok.Source != TokenFromGenerated {
		t.Fatalf("token %q", value)
	}
	st, _ := os.Stat(tok.Path)
	hst, _ := os.Stat(home)
	if st.Mode().Perm() != 0o600 || hst.Mode().Perm() != 0o700 {
		t.Fatalf("modes %v %v", st.Mode().Perm(), hst.Mode().Perm())
	}
	again, err := ExistingToken(home, tokenLookup(nil))
	if err != nil || !again.Check(value) {
		t.Fatalf("a later start reads the file: %v", err)
	}
	if _, err := GenerateToken(home); err == nil {
		t.Fatal("generating over an existing token must fail (O_EXCL)")
	}
	wide := t.TempDir()
	_ = os.Chmod(wide, 0o755)
	if _, err := GenerateToken(wide); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(wide); st.Mode().Perm() != 0o700 {
		t.Fatalf("home not narrowed: %v", st.Mode().Perm())
	}
}

func TestTokenCheckRequest(t *testing.T) {
	tok := newToken(TokenFromEnv, "", "s3cret")
	for header, want := range map[string]bool{"Bearer s3cret": true, "bearer s3cret": true, "Bearer  s3cret ": true,
		"Bearer s3cre": false, "Basic s3cret": false, "s3cret": false, "": false, "Bearer s3cretX": false} {
		r := httptest.NewRequest("POST", "/mcp", nil)
		if header != "" {
			r.Header.Set("Authorization", header)
		}
		if tok.CheckRequest(r) != want {
			t.Errorf("%q: got %v", header, !want)
		}
	}
}

func TestBindRules(t *testing.T) {
	tok, home := newToken(TokenFromEnv, "", "x"), t.TempDir()
	for _, h := range []string{"127.0.0.1", "localhost", "127.1.2.3", "::1", "[::1]"} {
		if err := CheckBind(h, nil, nil, home); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	for _, h := range []string{"", "0.0.0.0", "::", "192.168.1.5", "example.com"} {
		if err := CheckBind(h, nil, tok, home); fault.CodeOf(err, "") != CodeToken {
			t.Errorf("%q without --allowed-host: %v", h, err)
		}
		if err := CheckBind(h, []string{"box.lan"}, nil, home); fault.CodeOf(err, "") != CodeToken || !strings.Contains(err.Error(), filepath.Join(home, "mcp-token")) {
			t.Errorf("%q without a configured token: %v", h, err)
		}
		if err := CheckBind(h, []string{"box.lan"}, tok, home); err != nil {
			t.Errorf("%q with both: %v", h, err)
		}
	}
}

// The serve banner says where the token is, never what it is.
func TestTokenDescribeNamesWhereNeverWhat(t *testing.T) {
	for tok, want := range map[*Token]string{
		newToken(TokenFromEnv, "", "s3cret"):                   "bearer token from $RELAVIUM_MCP_TOKEN",
		newToken(TokenFromFile, "/h/mcp-token", "s3cret"):      "bearer token from /h/mcp-token",
		newToken(TokenFromGenerated, "/h/mcp-token", "s3cret"): "bearer token generated into /h/mcp-token",
	} {
		if got := tok.Describe(); got != want || strings.Contains(got, "s3cret") {
			t.Errorf("Describe() = %q, want %q", got, want)
		}
	}
}
