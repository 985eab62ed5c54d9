package consent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/relavium/relavium/fault"
)

// envRule is one row of the shared environment denylist (docs/security.md;
// each row's why is beside it below). A name matches case-insensitively: exactly, or by prefix when Prefix
// is set, unless it is one of Except.
type envRule struct {
	Pattern string // upper case; for a prefix rule the prefix itself
	Prefix  bool
	Except  []string
	Family  string
	Why     string
}

// denyRules returns the denylist. It is built on each call: an immutable
// table, never package state.
func denyRules() []envRule {
	exact := func(family, why string, names ...string) []envRule {
		out := make([]envRule, 0, len(names))
		for _, n := range names {
			out = append(out, envRule{Pattern: n, Family: family, Why: why})
		}
		return out
	}
	prefix := func(family, why string, names ...string) []envRule {
		out := make([]envRule, 0, len(names))
		for _, n := range names {
			out = append(out, envRule{Pattern: n, Prefix: true, Family: family, Why: why})
		}
		return out
	}
	var r []envRule
	add := func(rows ...[]envRule) {
		for _, row := range rows {
			r = append(r, row...)
		}
	}
	add(
		exact("path", "PATH decides which binary npx, node or uvx resolve to; the host sets it, never the config", "PATH"),
		prefix("dynamic loader", "dynamic-loader preload, audit and library paths load arbitrary shared objects", "LD_", "DYLD_", "_RLD", "LDR_"),
		exact("dynamic loader", "dynamic-loader library paths load arbitrary shared objects", "LIBPATH", "SHLIB_PATH"),
		exact("libc", "iconv loads gconv modules from it (CVE-2021-4034)", "GCONV_PATH"),
		exact("libc", "the tunables parser changes malloc and was exploitable (CVE-2023-4911)", "GLIBC_TUNABLES"),
		exact("libc", "libc loads locale, catalog and config files from it", "LOCPATH", "NLSPATH", "PATH_LOCALE", "GETCONF_DIR", "NIS_PATH", "TZDIR"),
		exact("libc", "glibc writes a trace file to this path", "MALLOC_TRACE"),
		exact("resolver", "redirects name resolution", "HOSTALIASES", "LOCALDOMAIN", "RES_OPTIONS", "RESOLV_HOST_CONF"),
		exact("openssl", "libcrypto loads engines and providers named there", "OPENSSL_CONF", "OPENSSL_ENGINES", "OPENSSL_MODULES"),
		exact("openssl", "exports TLS session keys", "SSLKEYLOGFILE"),
		exact("shell", "sourced by every non-interactive bash, sh or ksh", "BASH_ENV", "ENV"),
		prefix("shell", "an exported shell function overrides a command (Shellshock class)", "BASH_FUNC_"),
		exact("shell", "enables xtrace, whose PS4 then runs command substitutions", "SHELLOPTS", "BASHOPTS", "PS4"),
		exact("shell", "runs before each interactive bash prompt", "PROMPT_COMMAND"),
		exact("shell", "changes word splitting, cd or globbing in scripts", "IFS", "CDPATH", "GLOBIGNORE"),
		exact("shell", "zsh sources $ZDOTDIR/.zshenv even for zsh -c", "ZDOTDIR"),
		exact("shell", "ksh/zsh autoload paths and redirection commands", "FPATH", "NULLCMD", "READNULLCMD", "TMPPREFIX"),
		exact("node", "--require, --import or --inspect put code or a debugger in every node child", "NODE_OPTIONS"),
		exact("node", "shadows the modules a server require()s", "NODE_PATH", "NODE_REPL_EXTERNAL_MODULE"),
		exact("node", "adds a trust anchor or turns TLS verification off", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED"),
		prefix("electron", "ELECTRON_RUN_AS_NODE turns any Electron binary into a Node interpreter", "ELECTRON_"),
		[]envRule{{Pattern: "PYTHON", Prefix: true, Except: []string{"PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE"},
			Family: "python", Why: "PYTHONPATH, PYTHONHOME, PYTHONSTARTUP, PYTHONWARNINGS and PYTHONBREAKPOINT hijack imports or run code"}},
		exact("perl", "-M module preload, library path, debugger or debug-file write", "PERL5OPT", "PERL5LIB", "PERLLIB", "PERL5DB", "PERLIO_DEBUG"),
		exact("ruby", "-r preload or library path", "RUBYOPT", "RUBYLIB"),
		exact("java", "-javaagent or classpath injection", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH"),
		exact(".net", "startup hooks and profilers load a DLL", "DOTNET_STARTUP_HOOKS"),
		prefix(".net", "startup hooks and profilers load a DLL", "CORECLR_", "COR_", "COMPLUS_"),
		exact("php", "php.ini auto_prepend_file runs code", "PHPRC", "PHP_INI_SCAN_DIR"),
		prefix("lua", "LUA_INIT runs at start-up; LUA_PATH/LUA_CPATH choose modules", "LUA_INIT", "LUA_PATH", "LUA_CPATH"),
		prefix("r", "R start-up code", "R_PROFILE", "R_ENVIRON"),
		exact("tcl", "Tcl package path", "TCLLIBPATH"),
		prefix("npm", "registry, script-shell, node-options and userconfig redirect what npx fetches and runs", "NPM_CONFIG_", "YARN_", "PNPM_", "COREPACK_", "BUN_"),
		prefix("pip", "index URL and Python selection redirect what uvx or pipx install", "PIP_", "PIPX_"),
		[]envRule{{Pattern: "UV_", Prefix: true, Except: []string{"UV_THREADPOOL_SIZE"}, Family: "pip",
			Why: "index URL and Python selection redirect what uvx installs"}},
		exact("go toolchain", "-toolexec, a foreign toolchain or module source, or compiler flags for go run servers",
			"GOFLAGS", "GOTOOLCHAIN", "GOPROXY", "GONOPROXY", "GOPRIVATE", "GOSUMDB", "GONOSUMDB", "GONOSUMCHECK",
			"GOINSECURE", "GOENV", "GOROOT", "GOPATH", "GOBIN", "GOEXPERIMENT"),
		prefix("go toolchain", "compiler and linker flags for cgo", "CGO_"),
		exact("rust toolchain", "build-time code for cargo run and cargo install servers",
			"RUSTC_WRAPPER", "RUSTC_WORKSPACE_WRAPPER", "RUSTFLAGS", "RUSTDOCFLAGS", "RUSTC", "RUSTDOC"),
		prefix("rust toolchain", "build-time code for cargo run and cargo install servers", "CARGO_"),
		exact("docker", "another daemon, trust material or a credential-helper binary",
			"DOCKER_HOST", "DOCKER_CONFIG", "DOCKER_CONTEXT", "DOCKER_CERT_PATH", "DOCKER_TLS_VERIFY"),
		// The variables git itself reads (git(1), ENVIRONMENT VARIABLES, and
		// git-config(1)'s GIT_CONFIG_*): an application's own GIT_BASE_DIR or
		// GIT_REPO_URL is not git's and is not refused.
		exact("git", "git reads it: a repository, config, program or trust setting of every git a server runs",
			"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_INDEX_VERSION", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
			"GIT_DEFAULT_HASH", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_COMMON_DIR", "GIT_NAMESPACE",
			"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS",
			"GIT_EXEC_PATH", "GIT_TEMPLATE_DIR", "GIT_EXTERNAL_DIFF", "GIT_DIFF_OPTS", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR",
			"GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_ASKPASS", "GIT_TERMINAL_PROMPT", "GIT_ALLOW_PROTOCOL",
			"GIT_PROTOCOL_FROM_USER", "GIT_SMART_HTTP", "GIT_CURL_VERBOSE", "GIT_REDIRECT_STDIN", "GIT_REDIRECT_STDOUT",
			"GIT_REDIRECT_STDERR", "GIT_ATTR_NOSYSTEM", "GIT_ATTR_SOURCE", "GIT_REPLACE_REF_BASE", "GIT_NO_REPLACE_OBJECTS",
			"GIT_SHALLOW_FILE", "GIT_QUARANTINE_PATH", "GIT_REF_PARANOIA", "GIT_OPTIONAL_LOCKS", "GIT_NO_LAZY_FETCH",
			"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
			"GIT_REFLOG_ACTION", "GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS",
			"GIT_FLUSH", "GIT_PROGRESS_DELAY", "GIT_MERGE_VERBOSITY", "GIT_ADVICE", "GIT_PROXY_COMMAND"),
		prefix("git", "git reads them: config entries, TLS trust, HTTP and proxy settings, or trace files it writes",
			"GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "GIT_SSL_", "GIT_HTTP_", "GIT_PROXY_SSL_", "GIT_TRACE"),
		exact("git", "a program run to ask for a password", "SSH_ASKPASS", "SUDO_ASKPASS"),
		exact("pager/editor", "a command CLIs and Python webbrowser run", "PAGER", "EDITOR", "VISUAL", "BROWSER", "LESSOPEN", "LESSCLOSE", "MANPAGER"),
		exact("terminal", "terminfo parsed from attacker files", "TERMINFO", "TERMINFO_DIRS", "TERMCAP", "TERMPATH"),
		exact("kerberos", "Kerberos config and keytab", "KRB5_CONFIG", "KRB5_KTNAME"),
		exact("proxy", "man-in-the-middle or redirect of package downloads and API traffic", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "FTP_PROXY"),
		exact("trust anchors", "substitutes the trust anchors TLS verification uses", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"),
		exact("config dirs", "points tools at attacker dotfiles (.npmrc, .gitconfig, .zshenv); the host passes the real HOME",
			"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "INPUTRC"),
	)
	return r
}

// EnvError is an env entry refused by CheckEnv. It never holds the value.
// Its code (E300) and exit (2: a refused entry is an authored error) are
// fault.Base's, set by envRefused.
type EnvError struct {
	fault.Base
	Name   string
	Rule   string // the matching pattern (LD_*, NODE_OPTIONS, or "value () {")
	Family string
	Why    string
}

func envRefused(e EnvError) *EnvError {
	e.Base = fault.Base{ErrCode: CodeEnvRefused, Exit: fault.ExitUsage}
	return &e
}

func (e *EnvError) Error() string { return string(e.ErrCode) + ": " + e.Message() }

// Message names the entry, the rule it matched, its family and why.
func (e *EnvError) Message() string {
	if e.Family == "" {
		return fmt.Sprintf("env %s is refused: %s", quoteArg(e.Name), e.Why)
	}
	return fmt.Sprintf("env %s is refused by the %s rule (%s family): %s", quoteArg(e.Name), e.Rule, e.Family, e.Why)
}

// CheckEnv refuses a declared environment entry that would redirect an
// interpreter, the dynamic loader, a package manager or a tool's
// configuration: the name is matched case-insensitively
// against the shared denylist, including prefix families with their
// exceptions (PYTHONUNBUFFERED, UV_THREADPOOL_SIZE …); PATH is refused; any
// value beginning "()" (an exported shell function, "() {") is refused
// whatever its name; and a name that is empty or holds '=' or NUL, or a value
// holding NUL, is refused because no process environment can carry it. The
// error is an *EnvError (E300, exit 2) naming the rule and family; it never
// contains the value.
func CheckEnv(name, value string) error {
	if name == "" || strings.ContainsAny(name, "=\x00") {
		return envRefused(EnvError{Name: name, Rule: "name", Why: "an environment name must be non-empty and hold no '=' or NUL"})
	}
	if strings.IndexByte(value, 0) >= 0 {
		return envRefused(EnvError{Name: name, Rule: "value", Why: "the value holds a NUL byte, which no process environment can carry"})
	}
	up := strings.ToUpper(name)
	for _, r := range denyRules() {
		if r.matches(up) {
			rule := r.Pattern
			if r.Prefix {
				rule += "*"
			}
			return envRefused(EnvError{Name: name, Rule: rule, Family: r.Family, Why: r.Why})
		}
	}
	if strings.HasPrefix(strings.TrimLeft(value, " \t\n"), "()") {
		return envRefused(EnvError{Name: name, Rule: `value "() {"`, Family: "shell",
			Why: `a value beginning "() {" is an exported shell function definition (Shellshock class)`})
	}
	return nil
}

func (r envRule) matches(upper string) bool {
	if !r.Prefix {
		return upper == r.Pattern
	}
	if !strings.HasPrefix(upper, r.Pattern) {
		return false
	}
	for _, x := range r.Except {
		if upper == x {
			return false
		}
	}
	return true
}

// baseEnvNames are the only ambient variables a program relavium runs (a
// stdio server, a headers helper) inherits (docs/security.md "The project
// cannot redirect an approved program"): everything else — tokens,
// proxies, loader and interpreter hooks — stays in relavium's own
// environment.
var baseEnvNames = [...]string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TZ"}

// Inherited reports whether a program relavium runs inherits name from
// relavium's environment (one of baseEnvNames, or LC_*).
func Inherited(name string) bool {
	if strings.HasPrefix(name, "LC_") {
		return true
	}
	return slices.Contains(baseEnvNames[:], name)
}
