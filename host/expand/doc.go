// Package expand is what a stdio server is given, with every reference in
// its declaration expanded.
//
// Contract:
//   - ChildEnv is a stdio server's whole environment: the allowlisted
//     ambient names of relavium's own (HOME LOGNAME PATH SHELL TERM USER
//     LANG LC_* TZ; a value that begins "()", an exported shell function,
//     is never passed), then its env file's entries (EnvFileEntries: read
//     at every spawn by consent's reading, names changed since consent was
//     decided are E326; each value a secret shown as {{env_file.NAME}}),
//     then the declared values. ChildArgs are its
//     arguments. In both, {{env.VAR}} (with :-default) is read from
//     relavium's environment at spawn and {{secrets.NAME}} from the
//     secret stores, whole or inside text, each value kept for redaction;
//     the digest holds the text as written.
//   - What is lacking is named all at once: E880 for unset variables,
//     E520 for missing secrets (MissingSecrets joins several into one,
//     MissingOf lists them). SecretFor is the one secret lookup, and
//     AmbientValue the one reading of relavium's environment, behind a
//     network server's headers too.
//
// expand may import consent, fault, host/failure and host/secrets; never
// host's root or anything above (deps_test.go).
package expand
