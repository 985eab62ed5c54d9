package host

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
)

// baseEnvNames are the only ambient variables a stdio server inherits
// (docs/security.md "The project cannot redirect an approved program"):
// everything else — tokens, proxies, loader and interpreter hooks — stays
// in relavium's own environment.
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
// redaction. A missing secret is an authored error (exit 2) naming every
// secret the server lacks.
func childEnv(server string, ambient []string, declared []consent.EnvEntry, store SecretStore, secrets map[string]string) ([]string, error) {
	vals := map[string]string{}
	var unset []string // {{env.VAR}} whose VAR is not set and has no default
	for _, kv := range ambient {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || !inBaseEnv(name) || strings.HasPrefix(v, "()") {
			continue
		}
		vals[name] = v
	}
	var missing []*Error
	for _, e := range declared {
		switch e.Kind {
		case consent.KindSecretRef:
			v, err := lookupSecret(server, e, store)
			if he := (*Error)(nil); errors.As(err, &he) && he.ErrCode == CodeSecretMissing {
				missing = append(missing, he)
				continue
			}
			if err != nil {
				return nil, err
			}
			// The authored value was checked at parse; the resolved one is
			// checked here (an exported shell function smuggled in through
			// a secret store is refused the same way, value never echoed).
			if err := consent.CheckEnv(e.Name, v); err != nil {
				return nil, err
			}
			secrets[e.Secret] = v
			vals[e.Name] = v
		case consent.KindEnvRef:
			v, ok := ambientValue(ambient, e.Var)
			switch {
			case (!ok || v == "") && e.HasDefault: // ${VAR:-default}: unset or empty
				v = e.Default
			case !ok:
				unset = append(unset, e.Var)
				continue
			}
			if err := consent.CheckEnv(e.Name, v); err != nil {
				return nil, err
			}
			secrets["env."+e.Var] = v // read from the environment: redacted like a secret
			vals[e.Name] = v
		default:
			vals[e.Name] = e.Value
		}
	}
	if len(unset) > 0 {
		return nil, &Error{Base: fault.Base{ErrCode: CodeEnvRefUnset, Exit: fault.ExitUsage, Msg: fmt.Sprintf(
			"env {{env.%s}} is read from relavium's environment at spawn, and %s is not set: set it (or give a default, {{env.NAME:-default}})",
			strings.Join(unset, "}}, {{env."), strings.Join(unset, ", "))}, Server: server}
	}
	if len(missing) > 0 {
		return nil, missingSecrets(missing)
	}
	out := make([]string, 0, len(vals))
	for k, v := range vals {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out, nil
}

// childArgs are a stdio server's arguments as spawned: each {{env.VAR}}
// or {{env.VAR:-default}} in an argument, the whole argument or inside
// text ("{{env.HOME}}/state"; the consent digest holds the text as
// written), is read from relavium's environment now, kept for redaction
// like a secret; every other argument is passed as written. An unset VAR
// with no default is E880, naming every one.
func childArgs(server string, ambient, args []string, secrets map[string]string) ([]string, error) {
	out := make([]string, len(args))
	var unset []string
	for i, a := range args {
		spans, ok := consent.EnvRefsIn(a)
		if !ok || len(spans) == 0 {
			out[i] = a
			continue
		}
		var b strings.Builder
		last := 0
		for _, sp := range spans {
			v, set := ambientValue(ambient, sp.Name)
			switch {
			case (!set || v == "") && sp.HasDefault:
				v = sp.Def
			case !set:
				unset = append(unset, sp.Name)
				continue
			}
			if v != sp.Def {
				secrets["env."+sp.Name] = v
			}
			b.WriteString(a[last:sp.Start])
			b.WriteString(v)
			last = sp.End
		}
		b.WriteString(a[last:])
		out[i] = b.String()
	}
	if len(unset) > 0 {
		return nil, &Error{Base: fault.Base{ErrCode: CodeEnvRefUnset, Exit: fault.ExitUsage, Msg: fmt.Sprintf(
			"an argument {{env.%s}} is read from relavium's environment at spawn, and %s is not set: set it (or give a default, {{env.NAME:-default}})",
			strings.Join(unset, "}}, {{env."), strings.Join(unset, ", "))}, Server: server}
	}
	return out, nil
}

// ambientValue is name's value in relavium's own environment (the first
// entry wins, as Go's getenv reads it).
func ambientValue(ambient []string, name string) (string, bool) {
	for _, kv := range ambient {
		if n, val, ok := strings.Cut(kv, "="); ok && n == name {
			return val, true
		}
	}
	return "", false
}

// missingSecrets is one E520 naming every missing secret (a person fixes
// them all in one go, not one run at a time).
func missingSecrets(missing []*Error) error {
	if len(missing) == 1 {
		return missing[0]
	}
	parts := make([]string, len(missing))
	for i, m := range missing {
		parts[i] = m.Message()
	}
	return &Error{Base: fault.Base{ErrCode: CodeSecretMissing, Exit: fault.ExitUsage, Msg: fmt.Sprintf("%d secrets are not set: %s", len(missing), strings.Join(parts, "; "))}, parts: missing}
}

// missingOf lists the E520 parts of err (nil when err is something else).
func missingOf(err error) []*Error {
	var he *Error
	if !errors.As(err, &he) || he.ErrCode != CodeSecretMissing {
		return nil
	}
	if len(he.parts) > 0 {
		return he.parts
	}
	return []*Error{he}
}

func lookupSecret(server string, e consent.EnvEntry, store SecretStore) (string, error) {
	return secretFor(server, "env "+e.Name, e.Secret, store)
}

// secretFor resolves secret name for what needs it ("env NAME", "header
// NAME"): the one lookup behind a stdio server's env and a network server's
// headers. A missing secret is E520 saying where to set it.
func secretFor(server, what, name string, store SecretStore) (string, error) {
	if store == nil {
		return "", &Error{Base: fault.Base{ErrCode: CodeSecretMissing, Exit: fault.ExitUsage, Msg: what + " needs {{secrets." + name + "}} but no secret store is configured"}, Server: server}
	}
	v, ok, err := store.Secret(name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", &Error{Base: fault.Base{ErrCode: CodeSecretMissing, Exit: fault.ExitUsage, Msg: what + " needs {{secrets." + name + "}}, which is not set; set " +
			EnvSecretName(name) + " or add " + name + ` = "…" to secrets.toml in the relavium home (mode 0600)`}, Server: server}
	}
	return v, nil
}
