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
		{"GIT_SSH_COMMAND", "x", "GIT_SSH_COMMAND", "git"},
		{"GIT_CONFIG_COUNT", "1", "GIT_CONFIG_COUNT", "git"},
		{"GIT_CONFIG_KEY_3", "core.sshCommand", "GIT_CONFIG_KEY_*", "git"},
		{"GIT_SSL_NO_VERIFY", "1", "GIT_SSL_*", "git"},
		{"GIT_TRACE2_EVENT", "/tmp/x", "GIT_TRACE*", "git"},
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
		// An application's own GIT_ names are not git's (git reads only the
		// variables it documents).
		{"GIT_BASE_DIR", "/srv/repos"}, {"GIT_REPO_URL", "https://example.com/r.git"}, {"GITHUB_TOKEN", "x"},
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

// TestDenylistCoversSecurityNotes checks every row of the environment
// denylist the security review drew up (rows below, one per threat: loader,
// libc, shells, interpreters, package managers, proxies, trust anchors)
// name by name: each exact name, and for each pattern a name it must catch,
// refused as written, in lower case and in mixed case.
func TestDenylistCoversSecurityNotes(t *testing.T) {
	rows := [][]string{
		{"LD_PRELOAD", "LD_X", "DYLD_X", "_RLD_X", "_RLDN32_LIST", "LDR_X", "LIBPATH", "SHLIB_PATH"},
		{"GCONV_PATH"},
		{"GLIBC_TUNABLES"},
		{"LOCPATH", "NLSPATH", "PATH_LOCALE", "GETCONF_DIR", "NIS_PATH", "TZDIR"},
		{"MALLOC_TRACE"},
		{"HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS", "RESOLV_HOST_CONF"},
		{"OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES"},
		{"SSLKEYLOGFILE"},
		{"BASH_ENV", "ENV"},
		{"BASH_FUNC_X"},
		{"SHELLOPTS", "BASHOPTS", "PS4"},
		{"PROMPT_COMMAND"},
		{"IFS", "CDPATH", "GLOBIGNORE"},
		{"ZDOTDIR"},
		{"FPATH", "NULLCMD", "READNULLCMD", "TMPPREFIX"},
		{"PATH"},
		{"NODE_OPTIONS"},
		{"NODE_PATH", "NODE_REPL_EXTERNAL_MODULE"},
		{"NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED"},
		{"ELECTRON_RUN_AS_NODE"},
		{"PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONINSPECT", "PYTHONWARNINGS", "PYTHONBREAKPOINT", "PYTHONX"},
		{"PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "PERLIO_DEBUG"},
		{"RUBYOPT", "RUBYLIB"},
		{"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH"},
		{"DOTNET_STARTUP_HOOKS", "CORECLR_X", "COR_X", "COMPLUS_X"},
		{"PHPRC", "PHP_INI_SCAN_DIR"},
		{"LUA_INIT", "LUA_INIT_5_4", "LUA_PATH", "LUA_PATH_5_4", "LUA_CPATH", "LUA_CPATH_5_4"},
		{"R_PROFILE", "R_PROFILE_USER", "R_ENVIRON", "R_ENVIRON_USER", "TCLLIBPATH"},
		{"NPM_CONFIG_X", "YARN_X", "PNPM_X", "COREPACK_X", "BUN_X"},
		{"PIP_X", "UV_X", "PIPX_X"},
		{"GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "GONOPROXY", "GOPRIVATE", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK",
			"GOINSECURE", "GOENV", "GOROOT", "GOPATH", "GOBIN", "GOEXPERIMENT", "CGO_X"},
		{"RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_X"},
		{"DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CONTEXT"},
		{"GIT_DIR", "GIT_SSH_COMMAND", "GIT_ASKPASS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0",
			"GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_EXTERNAL_DIFF", "GIT_PAGER", "GIT_EDITOR", "SSH_ASKPASS", "SUDO_ASKPASS"},
		{"PAGER", "EDITOR", "VISUAL", "BROWSER", "LESSOPEN", "LESSCLOSE", "MANPAGER"},
		{"TERMINFO", "TERMINFO_DIRS", "TERMCAP", "TERMPATH", "KRB5_CONFIG", "KRB5_KTNAME"},
		{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"},
		{"SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "GIT_SSL_NO_VERIFY"},
	}
	for _, row := range rows {
		for _, name := range row {
			mixed := []byte(strings.ToLower(name))
			for i := 0; i < len(mixed); i += 2 {
				mixed[i] = strings.ToUpper(string(mixed[i]))[0]
			}
			for _, n := range []string{name, strings.ToLower(name), string(mixed)} {
				var ee *EnvError
				if err := CheckEnv(n, "x"); !errors.As(err, &ee) {
					t.Errorf("CheckEnv(%q) = %v: the security review's denylist denies it", n, err)
				}
			}
		}
	}
	// The exceptions the notes name stay allowed, in any case.
	for _, n := range []string{"PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE", "UV_THREADPOOL_SIZE", "Uv_ThreadPool_Size"} {
		if err := CheckEnv(n, "1"); err != nil {
			t.Errorf("CheckEnv(%q) = %v: the notes except it", n, err)
		}
	}
}
