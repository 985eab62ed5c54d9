package session

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/relavium/relavium/consent/urlref"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/config"
	"github.com/relavium/relavium/host/expand"
	"github.com/relavium/relavium/host/failure"
)

// A network server's url may hold references (package consent/urlref):
// it is shown, recorded and locked as written, and dialled expanded. The
// session expands it just before the guard admits it: every environment
// value from the session's environment, every secret from its stores,
// and each value becomes a secret of the session (its one redactor shows
// it as the reference it stands for, wherever a server or net/http would
// repeat the url). A value in the path or query, or spelled into a host
// name, is carried to the origin, so it is read only once its binding
// (NAME@ORIGIN, env.VAR@ORIGIN) is approved, as a header's secret is
// (binding.go); a reference that is a whole part of the origin is the
// person's environment choosing where to go, and a whole host a client
// file's input names (TypedHost) is where the person types to go: read
// when the server connects, never bound, judged by the guard.

// urlRefs are the references of srv's url (none for a literal url, or for
// one config refused: config checks every url before a session has it).
func urlRefs(srv config.Server) []urlref.Ref {
	refs, err := urlref.Read(srv.URL)
	if err != nil {
		return nil
	}
	return refs
}

// originURL is srv's url with the references of its origin expanded (the
// path and query left as written): an environment reference from
// lookupEnv, a host the person types (TypedHost) from typed (nil: not
// known here). It is the url whose origin a binding names. ok is false
// when the origin cannot be made (a variable unset, a host not typed yet;
// its connect says so, E880, E520).
func originURL(srv config.Server, lookupEnv, typed func(string) (string, bool)) (string, bool) {
	refs := urlRefs(srv)
	if len(refs) == 0 {
		return srv.URL, true
	}
	out, missing := urlref.Expand(srv.URL, refs, func(r urlref.Ref) (string, bool) {
		switch {
		case !r.Origin:
			return srv.URL[r.Start:r.End], true
		case r.TypedHost && typed == nil:
			return "", false
		case r.TypedHost:
			return typed(r.Secret)
		}
		v, _, ok := r.EnvValue(lookupEnv)
		return v, ok
	})
	return out, len(missing) == 0
}

// SignInURL is the url srv signs in at and its sign-in is kept under: its
// origin's references expanded from lookupEnv, its path and query as
// written (no value of them reaches an authorization server or the token
// store).
func SignInURL(srv config.Server, lookupEnv func(string) (string, bool)) string {
	u, _ := originURL(srv, lookupEnv, nil)
	return u
}

// typedValue reads a secret the url names as its host from the session's
// stores: typed in this session (the workbench's masked prompt), or,
// headless, RELAVIUM_SECRET_<ID> and the secrets file.
func (s *Session) typedValue(name string) (string, bool) {
	v, ok, err := s.secretStore().Secret(name)
	return v, err == nil && ok
}

// originOf is originURL with the session's environment and typed values.
func (s *Session) originOf(srv config.Server) (string, bool) {
	return originURL(srv, s.opts.LookupEnv, s.typedValue)
}

// urlCarried are the binding names of the values srv's url carries to its
// origin (its path and query, part of its host name), in order, once each.
func urlCarried(srv config.Server) []string {
	var out []string
	for _, r := range urlRefs(srv) {
		if r.Carried && !slices.Contains(out, r.BindingName()) {
			out = append(out, r.BindingName())
		}
	}
	return out
}

// dialURL is srv's url as dialled: every reference expanded, each value
// added to the session's redactor. A value in the path or query whose
// binding is not in bound is never read (E523, nothing dialled); an unset
// variable with no default is E880 and a secret no store holds E520 (bound
// or not: there is nothing to bind), each naming every one.
func (s *Session) dialURL(srv config.Server, bound []string) (string, error) {
	refs := urlRefs(srv)
	if len(refs) == 0 {
		return srv.URL, nil
	}
	store := s.secretStore()
	var unset []string
	var lacking []*failure.Error
	var unbound error
	envShown, secretShown := map[string]string{}, map[string]string{} // reference or name → value
	// readSecret reads a secret the url holds at what: a missing one is
	// lacking (E520, asked for in the workbench), a refused one unbound.
	readSecret := func(what, name string) (string, bool) {
		v, err := expand.SecretFor(srv.Name, what, name, store)
		if m := expand.MissingOf(err); m != nil {
			lacking = append(lacking, m...)
			return "", false
		}
		if err != nil {
			unbound = cmp.Or(unbound, err)
			return "", false
		}
		secretShown[name] = v
		return v, true
	}
	out, _ := urlref.Expand(srv.URL, refs, func(r urlref.Ref) (string, bool) {
		if r.TypedHost {
			// The host the person types: read, never bound (it is where
			// to go, not a value sent there); the guard judges the url it
			// makes before anything is dialled.
			return readSecret("the url's host", r.Secret)
		}
		if r.Secret == "" {
			v, fromEnv, ok := r.EnvValue(s.opts.LookupEnv)
			switch {
			case !ok:
				unset = append(unset, r.Name)
				return "", false
			case fromEnv && v != "" && r.Carried && !slices.Contains(bound, r.BindingName()):
				unbound = cmp.Or(unbound, unboundErr(srv, r))
				return "", false
			case fromEnv:
				envShown[r.Text()] = v
			}
			return v, true
		}
		if !slices.Contains(bound, r.BindingName()) {
			// A secret no store holds has nothing to bind: it is E520, as a
			// header's is, so the workbench asks for it (an ${input:id} of a
			// client file) and the typing binds it. Only its presence is
			// looked at, as decideBindings does.
			if _, held, err := store.Secret(r.Secret); err == nil && !held {
				_, err = expand.SecretFor(srv.Name, "the url", r.Secret, store)
				lacking = append(lacking, expand.MissingOf(err)...)
				return "", false
			}
			unbound = cmp.Or(unbound, unboundErr(srv, r))
			return "", false
		}
		return readSecret("the url", r.Secret)
	})
	switch {
	case len(unset) > 0:
		return "", &failure.Error{Base: fault.Base{ErrCode: failure.CodeEnvRefUnset, Exit: fault.ExitUsage, Msg: fmt.Sprintf(
			"the url reads {{env.%s}} from relavium's environment, and %s is not set: set it (or give a default, {{env.NAME:-default}})",
			strings.Join(unset, "}}, {{env."), strings.Join(unset, ", "))}, Server: srv.Name}
	case len(lacking) > 0: // what to supply first: typing it binds it
		return "", expand.MissingSecrets(lacking)
	case unbound != nil:
		return "", unbound
	}
	for ref, v := range envShown {
		s.opts.Redact.AddShown(ref, v)
	}
	for name, v := range secretShown {
		s.opts.Redact.Add(name, v)
	}
	return out, nil
}

// unboundErr is E523 for a url value whose binding was not approved.
func unboundErr(srv config.Server, r urlref.Ref) error {
	return &failure.Error{Base: fault.Base{ErrCode: failure.CodeSecretUnbound, Exit: fault.ExitUsage,
		Msg: "the url carries " + r.Text() + " to its origin, and it is not bound there; nothing was sent (bind it with --allow-secret " +
			r.BindingName() + "@ORIGIN or relavium consent grant " + r.BindingName() + "@ORIGIN)"}, Server: srv.Name}
}

// signInURL is SignInURL with a host the person typed.
func (s *Session) signInURL(srv config.Server) string {
	u, _ := s.originOf(srv)
	return u
}
