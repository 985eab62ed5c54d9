// Package golden is the one way relavium's tests compare output with a
// file checked into testdata (a golden file or a snapshot), and the one
// switch that rewrites those files.
//
// Contract:
//   - Check(t, path, got) reports (t.Errorf) when got differs from the
//     file at path, or when the file is missing, naming the first differing
//     line and the switch that accepts the change. It never rewrites a file
//     unless the switch is on.
//   - The switch is the environment variable RELAVIUM_UPDATE_GOLDEN=1
//     (UpdateEnv). With it, Check writes got to path (creating its
//     directory) before comparing, so the run passes and the diff is left
//     for review in git. An environment variable, not a test flag: it works
//     across `go test ./...`, where a flag would break every package that
//     does not define it.
//   - CheckDir(t, dir, suffix, names) keeps a directory of per-item
//     snapshots honest: it must hold exactly <name><suffix> files for
//     names. The snapshot of an item that no longer exists is reported,
//     and removed when the switch is on; any other file is reported.
//   - It is for tests only; no production package imports it.
//
// Allowed imports: the standard library only (testing among it);
// deps_test.go enforces it with `go list -deps`.
package golden
