package host

import (
	"sort"
	"strings"

	"github.com/relavium/relavium/consent"
)

// baseEnvNames are the only ambient variables a stdio server inherits
// (notes/security.md §3): everything else — tokens, proxies, loader and
// interpreter hooks — stays in relavium's own environment.
var baseEnvNames = [...]string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "TZ"}

func inBaseEnv(name string) bool {
	if strings.HasPrefix(name, "LC_") {
		return true
	}
	for _, n := range baseEnvNames {
		if n == name {
			return true
		}
	}
	return false
}

// childEnv builds a stdio server's environment: the allowlisted ambient
// names (a value that begins "()" — an exported shell function — is
// dropped), then the declared entries in order with every secret reference
// resolved. secrets receives name → value of every secret injected, for
// redaction. A missing secret is an authored error (exit 2).
func childEnv(server string, ambient []string, declared []consent.EnvEntry, store SecretStore, secrets map[string]string) ([]string, error) {
	vals := map[string]string{}
	for _, kv := range ambient {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || !inBaseEnv(name) || strings.HasPrefix(v, "()") {
			continue
		}
		vals[name] = v
	}
	for _, e := range declared {
		switch e.Kind {
		case consent.KindSecretRef:
			v, err := lookupSecret(server, e, store)
			if err != nil {
				return nil, err
			}
			secrets[e.Secret] = v
			vals[e.Name] = v
		default:
			vals[e.Name] = e.Value
		}
	}
	out := make([]string, 0, len(vals))
	for k, v := range vals {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out, nil
}

func lookupSecret(server string, e consent.EnvEntry, store SecretStore) (string, error) {
	if store == nil {
		return "", &Error{ErrCode: CodeSecretMissing, Server: server, Exit: exitUsage,
			Msg: "env " + e.Name + " needs {{secrets." + e.Secret + "}} but no secret store is configured"}
	}
	v, ok, err := store.Secret(e.Secret)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", &Error{ErrCode: CodeSecretMissing, Server: server, Exit: exitUsage,
			Msg: "env " + e.Name + " needs {{secrets." + e.Secret + "}}, which is not set; set " +
				EnvSecretName(e.Secret) + " or add " + e.Secret + ` = "…" to secrets.toml in the relavium home (mode 0600)`}
	}
	return v, nil
}
