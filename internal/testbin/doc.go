// Package testbin is the one way relavium's tests build a program of this
// module (the relavium binary, or a test server under testdata/) to run it
// as a real child process.
//
// Contract:
//   - Build(t, pkg, flags...) returns the path of the program built from
//     pkg, a directory relative to the module root ("." is relavium itself,
//     "./testdata/servers/hostile" a test server). Each (pkg, flags) target
//     is built once per test process, whichever test asks first; later
//     callers, in any goroutine, get the same path. A failed build fails
//     every caller with the compiler's output. flags go to `go build`
//     before -o, so a caller that wants a -race or -cover binary asks for
//     it; nothing is added by default.
//   - Relavium(t) is Build(t, "."). Program(pkg, flags...) is Build for a
//     TestMain, which has no testing.TB: it returns the error instead.
//   - The programs live in one temporary directory per process, each target
//     in its own subdirectory under its package's base name (relavium for
//     "."). A program is shared by every test of the process, so no test
//     may modify or replace it: copy it first.
//   - The directory is removed by Cleanup. A package that builds through
//     testbin calls it once its tests are done, from its TestMain: Exit
//     (Cleanup, then os.Exit) fits goleak.Cleanup, Run(m) fits a plain
//     TestMain.
//   - It is for tests only; no production package imports it. Its one piece
//     of process-wide state, the table of built targets, exists because a
//     build is a process-wide cost; it is guarded by a mutex.
//
// Allowed imports: the standard library only (testing among it);
// deps_test.go enforces it with `go list -deps`.
package testbin
