package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Inputs are what the default policy is derived from.
type Inputs struct {
	Command string   // the resolved, absolute program
	Args    []string // its arguments
	Cwd     string   // the absolute directory it is spawned in
	PATH    string   // the PATH the server is given (for "#!/usr/bin/env node")
	Home    string   // the person's home directory: never a runtime directory
}

// systemRead is what any program needs to start: the system's programs and
// libraries, process and cgroup information, the /etc files a resolver,
// a TLS stack and a locale read.
var systemRead = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/proc", "/sys/fs/cgroup", "/sys/devices/system/cpu", "/dev/null", "/dev/zero", "/dev/random", "/dev/urandom",
	"/etc/ssl", "/etc/ca-certificates", "/etc/pki", "/etc/ca-certificates.conf",
	"/etc/resolv.conf", "/etc/hosts", "/etc/host.conf", "/etc/gai.conf", "/etc/nsswitch.conf", "/etc/services", "/etc/protocols",
	"/etc/passwd", "/etc/group", "/etc/localtime", "/etc/timezone", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/os-release", "/etc/mime.types", "/etc/alternatives", "/etc/java-21-openjdk", "/etc/python3", "/etc/nodejs",
}

// Effective is the policy a server runs under: the declaration over the
// defaults. Default paths that do not exist are left out; declared ones
// are kept as written (made absolute against the cwd). The project
// directory and the roots are named, not listed: they are the session's
// (Applied carries them), so a grant holds in whichever project and
// with whichever roots the person runs it.
func Effective(d Decl, in Inputs) Policy {
	if d.Off {
		return Off()
	}
	read := existing(systemRead)
	read = append(read, runtimeDirs(in)...)
	read = append(read, in.Cwd)
	p := Policy{
		Enabled:  true,
		Required: d.Required,
		Write:    clean(d.Write, in.Cwd),
		Tmp:      true,
		Project:  true,
		Roots:    true,
		Network:  d.Network,
		Allow:    nonNil(slices.Compact(slices.Sorted(slices.Values(d.Allow)))),
	}
	if p.Network == "" {
		p.Network = NetOpen
	}
	if p.Network != NetGuarded {
		p.Allow = []string{}
	}
	// A path readable because it is writable is listed once, as written.
	var r []string
	for _, x := range prune(clean(append(read, d.Read...), in.Cwd)) {
		if !under(x, p.Write) {
			r = append(r, x)
		}
	}
	p.Read = nonNil(r)
	p.Write = nonNil(prune(p.Write))
	return p
}

func existing(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// runtimeDirs are the directories the program needs beyond the system: the
// installation of the resolved program (a node, a python in a virtualenv,
// a static binary: the tree its bin/ sits in), the interpreter a script's
// "#!" names, and the package a script argument belongs to (the outermost
// node_modules it is in, its dependencies being there too, or the nearest
// directory with a package manifest).
func runtimeDirs(in Inputs) []string {
	var out []string
	add := func(p string) {
		if p != "" {
			out = append(out, p)
		}
	}
	install := func(prog string) {
		d := installDir(prog)
		if d == in.Home || d == "/" {
			d = filepath.Dir(prog)
		}
		add(d)
	}
	pkg := func(file string) string {
		if d := packageDir(file); d != in.Home && d != "/" {
			return d
		}
		return filepath.Dir(file)
	}
	prog := realPath(in.Command)
	install(in.Command)
	install(prog)
	if interp := shebang(prog, in.PATH); interp != "" {
		install(interp)
		install(realPath(interp))
		add(pkg(prog))
	}
	for _, a := range in.Args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if !filepath.IsAbs(a) {
			a = filepath.Join(in.Cwd, a)
		}
		if st, err := os.Stat(a); err == nil && st.Mode().IsRegular() {
			add(pkg(realPath(a)))
			break
		}
	}
	return out
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// installDir is the tree a program is installed in: the parent of its bin
// directory, else its own directory.
func installDir(prog string) string {
	dir := filepath.Dir(prog)
	if filepath.Base(dir) == "bin" {
		return filepath.Dir(dir)
	}
	return dir
}

// packageDir is the outermost node_modules above file, else the nearest
// directory above it holding a package manifest, else its directory.
func packageDir(file string) string {
	dir := filepath.Dir(file)
	if i := strings.Index(dir+"/", "/node_modules/"); i >= 0 {
		return dir[:i+len("/node_modules")]
	}
	for d := dir; ; d = filepath.Dir(d) {
		for _, m := range []string{"package.json", "pyproject.toml", "go.mod", "Cargo.toml"} {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

// shebang is the interpreter a script's first line names ("#!/usr/bin/env
// node" looked up on path), or "".
func shebang(file, path string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil && line == "" || !strings.HasPrefix(line, "#!") {
		return ""
	}
	fields := strings.Fields(line[2:])
	if len(fields) == 0 {
		return ""
	}
	if filepath.Base(fields[0]) != "env" || len(fields) < 2 {
		return fields[0]
	}
	name := fields[1]
	if name == "-S" && len(fields) > 2 {
		name = fields[2]
	}
	for _, dir := range filepath.SplitList(path) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// System reports whether path is one of the system paths every default
// policy reads (what a dialog may show as one line).
func System(path string) bool {
	return slices.Contains(systemRead, path)
}
