package consent

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckEnvRefuses(t *testing.T) {
	for _, tc := range []struct {
		name, value string
		rule        string // the rule the message must name
		family      string
	}{
		{"PATH", "/usr/bin", "PATH", "path"},
		{"path", "/usr/bin", "PATH", "path"},
		{"LD_PRELOAD", "/tmp/x.so", "LD_*", "dynamic loader"},
		{"ld_library_path", "/tmp", "LD_*", "dynamic loader"},
		{"LD_AUDIT", "x", "LD_*", "dynamic loader"},
		{"DYLD_INSERT_LIBRARIES", "x", "DYLD_*", "dynamic loader"},
		{"_RLD_LIST", "x", "_RLD*", "dynamic loader"},
		{"LDR_PRELOAD", "x", "LDR_*", "dynamic loader"},
		{"LIBPATH", "x", "LIBPATH", "dynamic loader"},
		{"SHLIB_PATH", "x", "SHLIB_PATH", "dynamic loader"},
		{"GCONV_PATH", "x", "GCONV_PATH", "libc"},
		{"GLIBC_TUNABLES", "x", "GLIBC_TUNABLES", "libc"},
		{"LOCPATH", "x", "LOCPATH", "libc"},
		{"NLSPATH", "x", "NLSPATH", "libc"},
		{"TZDIR", "x", "TZDIR", "libc"},
		{"MALLOC_TRACE", "x", "MALLOC_TRACE", "libc"},
		{"HOSTALIASES", "x", "HOSTALIASES", "resolver"},
		{"RES_OPTIONS", "x", "RES_OPTIONS", "resolver"},
		{"OPENSSL_CONF", "x", "OPENSSL_CONF", "openssl"},
		{"OPENSSL_MODULES", "x", "OPENSSL_MODULES", "openssl"},
		{"SSLKEYLOGFILE", "x", "SSLKEYLOGFILE", "openssl"},
		{"BASH_ENV", "x", "BASH_ENV", "shell"},
		{"ENV", "x", "ENV", "shell"},
		{"BASH_FUNC_ls%%", "x", "BASH_FUNC_*", "shell"},
		{"SHELLOPTS", "braceexpand", "SHELLOPTS", "shell"},
		{"PS4", "$(id)", "PS4", "shell"},
		{"PROMPT_COMMAND", "x", "PROMPT_COMMAND", "shell"},
		{"IFS", "x", "IFS", "shell"},
		{"CDPATH", "x", "CDPATH", "shell"},
		{"ZDOTDIR", "x", "ZDOTDIR", "shell"},
		{"FPATH", "x", "FPATH", "shell"},
		{"NODE_OPTIONS", "--require=x", "NODE_OPTIONS", "node"},
		{"node_options", "x", "NODE_OPTIONS", "node"},
		{"NODE_PATH", "x", "NODE_PATH", "node"},
		{"NODE_EXTRA_CA_CERTS", "x", "NODE_EXTRA_CA_CERTS", "node"},
		{"NODE_TLS_REJECT_UNAUTHORIZED", "0", "NODE_TLS_REJECT_UNAUTHORIZED", "node"},
		{"ELECTRON_RUN_AS_NODE", "1", "ELECTRON_*", "electron"},
		{"PYTHONPATH", "x", "PYTHON*", "python"},
		{"PYTHONSTARTUP", "x", "PYTHON*", "python"},
		{"pythonhome", "x", "PYTHON*", "python"},
		{"PYTHONWARNINGS", "x", "PYTHON*", "python"},
		{"PYTHONBREAKPOINT", "x", "PYTHON*", "python"},
		{"PERL5OPT", "x", "PERL5OPT", "perl"},
		{"PERL5LIB", "x", "PERL5LIB", "perl"},
		{"RUBYOPT", "x", "RUBYOPT", "ruby"},
		{"JAVA_TOOL_OPTIONS", "x", "JAVA_TOOL_OPTIONS", "java"},
		{"_JAVA_OPTIONS", "x", "_JAVA_OPTIONS", "java"},
		{"CLASSPATH", "x", "CLASSPATH", "java"},
		{"DOTNET_STARTUP_HOOKS", "x", "DOTNET_STARTUP_HOOKS", ".net"},
		{"CORECLR_PROFILER_PATH", "x", "CORECLR_*", ".net"},
		{"COR_PROFILER", "x", "COR_*", ".net"},
		{"COMPlus_x", "x", "COMPLUS_*", ".net"},
		{"PHPRC", "x", "PHPRC", "php"},
		{"LUA_INIT_5_4", "x", "LUA_INIT*", "lua"},
		{"LUA_CPATH", "x", "LUA_CPATH*", "lua"},
		{"R_PROFILE_USER", "x", "R_PROFILE*", "r"},
		{"TCLLIBPATH", "x", "TCLLIBPATH", "tcl"},
		{"NPM_CONFIG_REGISTRY", "x", "NPM_CONFIG_*", "npm"},
		{"npm_config_script_shell", "x", "NPM_CONFIG_*", "npm"},
		{"YARN_RC_FILENAME", "x", "YARN_*", "npm"},
		{"PNPM_HOME", "x", "PNPM_*", "npm"},
		{"COREPACK_NPM_REGISTRY", "x", "COREPACK_*", "npm"},
		{"BUN_CONFIG_REGISTRY", "x", "BUN_*", "npm"},
		{"PIP_INDEX_URL", "x", "PIP_*", "pip"},
		{"UV_INDEX_URL", "x", "UV_*", "pip"},
		{"uv_python", "x", "UV_*", "pip"},
		{"PIPX_HOME", "x", "PIPX_*", "pip"},
		{"GOFLAGS", "-toolexec=x", "GOFLAGS", "go toolchain"},
		{"GOPROXY", "x", "GOPROXY", "go toolchain"},
		{"GOTOOLCHAIN", "x", "GOTOOLCHAIN", "go toolchain"},
		{"CGO_LDFLAGS", "x", "CGO_*", "go toolchain"},
		{"RUSTC_WRAPPER", "x", "RUSTC_WRAPPER", "rust toolchain"},
		{"CARGO_HOME", "x", "CARGO_*", "rust toolchain"},
		{"DOCKER_HOST", "x", "DOCKER_HOST", "docker"},
		{"GIT_SSH_COMMAND", "x", "GIT_*", "git"},
		{"GIT_CONFIG_COUNT", "1", "GIT_*", "git"},
		{"GIT_SSL_NO_VERIFY", "1", "GIT_*", "git"},
		{"SSH_ASKPASS", "x", "SSH_ASKPASS", "git"},
		{"PAGER", "x", "PAGER", "pager/editor"},
		{"EDITOR", "x", "EDITOR", "pager/editor"},
		{"LESSOPEN", "x", "LESSOPEN", "pager/editor"},
		{"BROWSER", "x", "BROWSER", "pager/editor"},
		{"TERMINFO", "x", "TERMINFO", "terminal"},
		{"KRB5_CONFIG", "x", "KRB5_CONFIG", "kerberos"},
		{"HTTP_PROXY", "x", "HTTP_PROXY", "proxy"},
		{"https_proxy", "x", "HTTPS_PROXY", "proxy"},
		{"all_proxy", "x", "ALL_PROXY", "proxy"},
		{"SSL_CERT_FILE", "x", "SSL_CERT_FILE", "trust anchors"},
		{"REQUESTS_CA_BUNDLE", "x", "REQUESTS_CA_BUNDLE", "trust anchors"},
		{"CURL_CA_BUNDLE", "x", "CURL_CA_BUNDLE", "trust anchors"},
		{"HOME", "./evil", "HOME", "config dirs"},
		{"XDG_CONFIG_HOME", "x", "XDG_CONFIG_HOME", "config dirs"},
		{"FOO", "() { :; }; echo pwned", `value "() {"`, "shell"},
		{"FOO", "  () { :;}", `value "() {"`, "shell"},
		{"", "x", "", ""},
		{"A=B", "x", "", ""},
		{"A\x00", "x", "", ""},
		{"A", "x\x00y", "", ""},
	} {
		err := CheckEnv(tc.name, tc.value)
		var ee *EnvError
		if !errors.As(err, &ee) {
			t.Errorf("CheckEnv(%q) = %v, want an *EnvError", tc.name, err)
			continue
		}
		if ee.Code() != CodeEnvRefused || ee.ExitCode() != 2 {
			t.Errorf("CheckEnv(%q): code %s exit %d", tc.name, ee.Code(), ee.ExitCode())
		}
		msg := err.Error()
		if tc.rule != "" && (!strings.Contains(msg, tc.rule) || !strings.Contains(msg, "("+tc.family+" family)")) {
			t.Errorf("CheckEnv(%q) message %q does not name rule %s and family %s", tc.name, msg, tc.rule, tc.family)
		}
		if len(tc.value) > 2 && strings.Contains(msg, tc.value) {
			t.Errorf("CheckEnv(%q) message leaks the value: %q", tc.name, msg)
		}
	}
}

func TestCheckEnvAllows(t *testing.T) {
	for _, tc := range [][2]string{
		{"PYTHONUNBUFFERED", "1"}, {"pythonunbuffered", "1"}, {"PYTHONIOENCODING", "utf-8"}, {"PYTHONUTF8", "1"},
		{"PYTHONDONTWRITEBYTECODE", "1"}, {"UV_THREADPOOL_SIZE", "8"}, {"uv_threadpool_size", "8"},
		{"GITHUB_TOKEN", "{{secrets.github_token}}"}, {"GOOGLE_APPLICATION_CREDENTIALS", "/k.json"},
		{"NODE_ENV", "production"}, {"LOG_LEVEL", "debug"}, {"TMPDIR", "/tmp"}, {"LANG", "C.UTF-8"},
		{"PATHEXT", "x"}, {"MY_PATH", "/x"}, {"ENVIRONMENT", "prod"}, {"GOPHER", "1"}, {"COREY", "1"},
		{"A", "(not a function)"}, {"A", "x () {"}, {"DEBUG", ""}, {"UV", "1"}, {"PIP", "1"},
	} {
		if err := CheckEnv(tc[0], tc[1]); err != nil {
			t.Errorf("CheckEnv(%q, %q) = %v, want nil", tc[0], tc[1], err)
		}
	}
}
