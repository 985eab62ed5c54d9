package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ExecCommand is the hidden subcommand of relavium that applies a policy
// and execs the server.
const ExecCommand = "sandbox-exec"

// Applied is what sandbox-exec is handed: the policy and what the host
// made for this one spawn.
type Applied struct {
	Policy Policy `json:"policy"`
	// TmpDir is the server's private temp dir (when Policy.Tmp).
	TmpDir string `json:"tmp_dir,omitempty"`
	// ProxyPort is the guarded network's proxy on loopback (when guarded).
	ProxyPort uint16 `json:"proxy_port,omitempty"`
	// Project and Roots are the session's (read when Policy.Project,
	// written when Policy.Roots).
	Project string   `json:"project,omitempty"`
	Roots   []string `json:"roots,omitempty"`
}

// Argv is the command line that runs command under a: launcher (relavium's
// own executable) sandbox-exec, the applied policy, "--", the server.
func Argv(launcher string, a Applied, command string, args []string) []string {
	b, _ := json.Marshal(a) // strings, bools and a number: cannot fail
	return append([]string{launcher, ExecCommand, string(b), "--", command}, args...)
}

// parseArgv reads what Argv wrote (after the subcommand).
func parseArgv(args []string) (Applied, []string, error) {
	if len(args) < 3 || args[1] != "--" {
		return Applied{}, nil, errors.New("usage: relavium sandbox-exec POLICY -- COMMAND [ARG…] (relavium runs this itself)")
	}
	var a Applied
	if err := json.Unmarshal([]byte(args[0]), &a); err != nil {
		return Applied{}, nil, fmt.Errorf("the policy does not parse: %w", err)
	}
	if !a.Policy.Enabled {
		return Applied{}, nil, errors.New("a disabled policy is never applied")
	}
	if !a.Policy.Network.Valid() {
		return Applied{}, nil, fmt.Errorf("network %q is not none, guarded or open", a.Policy.Network)
	}
	if a.Policy.Network == NetGuarded && a.ProxyPort == 0 {
		return Applied{}, nil, errors.New("network guarded without a proxy port")
	}
	return a, args[2:], nil
}
