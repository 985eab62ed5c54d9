package expand

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
	"github.com/relavium/relavium/host/secrets"
)

// ChildEnv builds a stdio server's environment: the allowlisted ambient
// names (a value that begins "()" — an exported shell function — is
// dropped), then the declared entries in order with every secret reference
// resolved. secrets receives name → value of every secret injected, for
// redaction. A missing secret is an authored error (exit 2) naming every
// secret the server lacks.
func ChildEnv(server string, ambient []string, file, declared []consent.EnvEntry, store secrets.SecretStore, secrets map[string]string) ([]string, error) {
	vals := map[string]string{}
	for _, kv := range ambient {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || !consent.Inherited(name) || strings.HasPrefix(v, "()") {
			continue
		}
		vals[name] = v
	}
	// The env file's entries (read by envFileEntries, each checked by the
	// denylist), then the declared ones, which win as a client's env wins
	// over its envFile.
	for _, e := range file {
		vals[e.Name] = e.Value
	}
	x := expander{server: server, ambient: ambient, store: store, secrets: secrets}
	for _, e := range declared {
		var v string
		switch e.Kind {
		case consent.KindSecretRef:
			sv, err := lookupSecret(server, e, store)
			if he := (*failure.Error)(nil); errors.As(err, &he) && he.ErrCode == failure.CodeSecretMissing {
				x.missing = append(x.missing, he)
				continue
			}
			if err != nil {
				return nil, err
			}
			secrets[e.Secret] = sv
			v = sv
		case consent.KindEnvRef:
			ev, ok := AmbientValue(ambient, e.Var)
			switch {
			case (!ok || ev == "") && e.HasDefault: // ${VAR:-default}: unset or empty
				ev = e.Default
			case !ok:
				x.unset = append(x.unset, e.Var)
				continue
			}
			secrets["env."+e.Var] = ev // read from the environment: redacted like a secret
			v = ev
		default:
			// A literal, in which a reference inside text
			// ("{{env.HOME}}/state") is expanded as an argument's is.
			before := len(x.unset) + len(x.missing)
			ev, err := x.text("env "+e.Name, e.Value)
			if err != nil {
				return nil, err
			}
			if len(x.unset)+len(x.missing) != before {
				continue
			}
			v = ev
		}
		// The authored value was checked at parse; the resolved one is
		// checked here (an exported shell function smuggled in through a
		// secret store or the environment is refused the same way, value
		// never echoed).
		if v != e.Value {
			if err := consent.CheckEnv(e.Name, v); err != nil {
				return nil, err
			}
		}
		vals[e.Name] = v
	}
	if err := x.err("env"); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(vals))
	for k, v := range vals {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out, nil
}

// EnvFileEntries reads a stdio server's env file at spawn (nil when it
// has none): bounded and FIFO-safe, each entry under the env denylist, by
// consent.ReadEnvFile, the reading the digest's names came from. Names
// that differ from those digested when consent was decided are E326 (the
// file changed in between: run again to be asked). Every value is kept
// for redaction, shown as {{env_file.NAME}}.
func EnvFileEntries(server string, f *consent.EnvFile, secrets map[string]string) ([]consent.EnvEntry, error) {
	if f == nil {
		return nil, nil
	}
	vars, err := consent.ReadEnvFile(f.Path)
	if err != nil {
		return nil, &failure.Error{Base: fault.Base{ErrCode: fault.CodeOf(err, consent.CodeEnvFile), Exit: fault.ExitUsage, Msg: fault.MessageOf(err)}, Server: server}
	}
	if consent.NewEnvFile(f.Path, vars).NamesDigest != f.NamesDigest {
		return nil, &failure.Error{Base: fault.Base{ErrCode: consent.CodeEnvFileChanged, Exit: fault.ExitUsage, Msg: "env file " + f.Path +
			" sets other variables than when consent was decided for this server: run again to be asked about the new ones"}, Server: server}
	}
	out := make([]consent.EnvEntry, len(vars))
	for i, v := range vars {
		out[i] = consent.EnvEntry{Name: v.Name, Kind: consent.KindLiteral, Value: v.Value}
		secrets[EnvFilePrefix+v.Name] = v.Value
	}
	return out, nil
}

// EnvFilePrefix marks an env file's value among a connection's secrets.
const EnvFilePrefix = "env_file."

// ChildArgs are a stdio server's arguments as spawned: each reference in
// an argument, the whole argument or inside text, is expanded by
// expandText; every other argument is passed as written. An unset VAR with
// no default is E880, naming every one; a missing secret E520, naming
// every one.
func ChildArgs(server string, ambient, args []string, store secrets.SecretStore, secrets map[string]string) ([]string, error) {
	x := expander{server: server, ambient: ambient, store: store, secrets: secrets}
	out := make([]string, len(args))
	for i, a := range args {
		v, err := x.text("an argument", a)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, x.err("an argument")
}

// expander expands the references inside a stdio server's text values
// (arguments, env values with text around a reference): the one reading
// of such a text (consent.RefsIn, the reading consent digests), so that
// the digest holds the text as written and the child gets the values.
//
//   - {{env.VAR}} / {{env.VAR:-default}} is read from relavium's own
//     environment now (the default when unset or empty), kept for
//     redaction like a secret;
//   - {{secrets.NAME}} is the secret from the person's stores, bound to
//     this program by its stdio consent (the digest names the secret), kept
//     for redaction.
//
// Unset variables and missing secrets are collected, so one error names
// every one.
type expander struct {
	server  string
	ambient []string
	store   secrets.SecretStore
	secrets map[string]string
	unset   []string
	missing []*failure.Error
}

func (x *expander) text(what, a string) (string, error) {
	spans, ok := consent.RefsIn(a)
	if !ok || len(spans) == 0 {
		return a, nil
	}
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		var v string
		if sp.Secret != "" {
			sv, err := SecretFor(x.server, what, sp.Secret, x.store)
			if he := (*failure.Error)(nil); errors.As(err, &he) && he.ErrCode == failure.CodeSecretMissing {
				x.missing = append(x.missing, he)
				continue
			}
			if err != nil {
				return "", err
			}
			v = sv
			x.secrets[sp.Secret] = v
		} else {
			ev, set := AmbientValue(x.ambient, sp.Name)
			switch {
			case (!set || ev == "") && sp.HasDefault:
				ev = sp.Def
			case !set:
				x.unset = append(x.unset, sp.Name)
				continue
			}
			if ev != sp.Def {
				x.secrets["env."+sp.Name] = ev
			}
			v = ev
		}
		b.WriteString(a[last:sp.Start])
		b.WriteString(v)
		last = sp.End
	}
	b.WriteString(a[last:])
	return b.String(), nil
}

// err is what the expansion lacked: E880 for unset variables, else E520
// for missing secrets.
func (x *expander) err(what string) error {
	if len(x.unset) > 0 {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeEnvRefUnset, Exit: fault.ExitUsage, Msg: fmt.Sprintf(
			"%s {{env.%s}} is read from relavium's environment at spawn, and %s is not set: set it (or give a default, {{env.NAME:-default}})",
			what, strings.Join(x.unset, "}}, {{env."), strings.Join(x.unset, ", "))}, Server: x.server}
	}
	if len(x.missing) > 0 {
		return MissingSecrets(x.missing)
	}
	return nil
}

// AmbientValue is name's value in relavium's own environment (the first
// entry wins, as Go's getenv reads it).
func AmbientValue(ambient []string, name string) (string, bool) {
	for _, kv := range ambient {
		if n, val, ok := strings.Cut(kv, "="); ok && n == name {
			return val, true
		}
	}
	return "", false
}

// MissingSecrets is one E520 naming every missing secret (a person fixes
// them all in one go, not one run at a time).
func MissingSecrets(missing []*failure.Error) error {
	if len(missing) == 1 {
		return missing[0]
	}
	parts := make([]string, len(missing))
	var names []string
	for i, m := range missing {
		parts[i] = m.Message()
		if !slices.Contains(names, m.Secret) {
			names = append(names, m.Secret)
		}
	}
	// One secret a server names twice (an ${input:id} in an argument and
	// in env) is one secret to set, named in two places.
	head := fmt.Sprintf("%d secrets are not set", len(names))
	if len(names) == 1 {
		head = "a secret is not set"
	}
	if len(names) != len(missing) {
		head += fmt.Sprintf(", named in %d places", len(missing))
	}
	return &failure.Error{Base: fault.Base{ErrCode: failure.CodeSecretMissing, Exit: fault.ExitUsage, Msg: head + ": " + strings.Join(parts, "; ")}, Parts: missing}
}

// MissingOf lists the E520 parts of err (nil when err is something else).
func MissingOf(err error) []*failure.Error {
	var he *failure.Error
	if !errors.As(err, &he) || he.ErrCode != failure.CodeSecretMissing {
		return nil
	}
	if len(he.Parts) > 0 {
		return he.Parts
	}
	return []*failure.Error{he}
}

func lookupSecret(server string, e consent.EnvEntry, store secrets.SecretStore) (string, error) {
	return SecretFor(server, "env "+e.Name, e.Secret, store)
}

// SecretFor resolves secret name for what needs it ("env NAME", "header
// NAME"): the one lookup behind a stdio server's env and a network server's
// headers. A missing secret is E520 saying where to set it.
func SecretFor(server, what, name string, store secrets.SecretStore) (string, error) {
	if store == nil {
		return "", &failure.Error{Base: fault.Base{ErrCode: failure.CodeSecretMissing, Exit: fault.ExitUsage, Msg: what + " needs {{secrets." + name + "}} but no secret store is configured"}, Server: server, Secret: name}
	}
	v, ok, err := store.Secret(name)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", &failure.Error{Base: fault.Base{ErrCode: failure.CodeSecretMissing, Exit: fault.ExitUsage, Msg: what + " needs {{secrets." + name + "}}, which is not set; set " +
			secrets.EnvSecretName(name) + " or add " + name + ` = "…" to secrets.toml in the relavium home (mode 0600)`}, Server: server, Secret: name}
	}
	return v, nil
}
