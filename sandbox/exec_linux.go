//go:build linux

package sandbox

import (
	"fmt"
	"os"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
)

// devices are the device files every program may read and write: writes
// to them go nowhere, reads give nothing or randomness.
var devices = []string{"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom", "/dev/full"}

// Exec is `relavium sandbox-exec`: it confines its own process to the
// applied policy and execs the server in its place. It returns only on
// failure (then the caller exits 126 with the message on stderr): nothing
// is ever exec'd unconfined.
func Exec(args []string, env []string) error {
	a, argv, err := parseArgv(args)
	if err != nil {
		return err
	}
	if err := restrict(a); err != nil {
		return fmt.Errorf("relavium could not confine the server (%s): %w", CodeApply, err)
	}
	// Confined: the exec below, and everything the server starts, stays so.
	err = syscall.Exec(argv[0], argv, env)
	return fmt.Errorf("cannot start %s: %w", argv[0], err)
}

// restrict applies a to the calling process: no_new_privs, then one
// Landlock domain over files, TCP ports and (ABI ≥ 6) IPC scopes.
func restrict(a Applied) error {
	p := a.Policy
	cfg := landlock.Config{HandledAccessFS: landlock.V7.HandledAccessFS, Scoped: landlock.V7.Scoped}
	if p.Network != NetOpen {
		cfg.HandledAccessNet = landlock.V7.HandledAccessNet
	}
	var rules []landlock.Rule
	read := append([]string(nil), p.Read...)
	if p.Project && a.Project != "" {
		read = append(read, a.Project)
	}
	dirs, files := split(read)
	if len(dirs) > 0 {
		rules = append(rules, landlock.RODirs(dirs...))
	}
	if len(files) > 0 {
		rules = append(rules, landlock.ROFiles(files...))
	}
	write := append([]string(nil), p.Write...)
	if p.Tmp && a.TmpDir != "" {
		write = append(write, a.TmpDir)
	}
	if p.Roots {
		write = append(write, a.Roots...)
	}
	dirs, files = split(write)
	if len(dirs) > 0 {
		rules = append(rules, landlock.RWDirs(dirs...).WithRefer())
	}
	if len(files) > 0 {
		rules = append(rules, landlock.RWFiles(files...))
	}
	rules = append(rules, landlock.RWFiles(devices...).IgnoreIfMissing())
	if p.Network == NetGuarded {
		rules = append(rules, landlock.ConnectTCP(a.ProxyPort))
	}
	// BestEffort takes what this kernel offers of ABI 7 (Probe has
	// checked it offers at least ABI 4: files and TCP).
	return cfg.BestEffort().Restrict(rules...)
}

// split sorts paths into directories and other files (Landlock grants
// directory rights only on directories); a path that does not exist is
// left out.
func split(paths []string) (dirs, files []string) {
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err != nil:
		case st.IsDir():
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
	}
	return dirs, files
}
