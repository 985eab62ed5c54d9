// Package deadline is how host tells a deadline from a cancellation and
// counts a call's time.
//
// Contract:
//   - Cause is the cause a context carries when one of the connect,
//     discovery or call deadlines elapsed: what ran out, its length, and
//     what raises it. A context ended with any other cause was cancelled.
//   - Call is one call's two deadlines, both counted in active time only:
//     idle (reset by every sign of life, Touch) and hard (the cap on the
//     whole call). While the person is asked something on the call's
//     server (Pause … Resume, nested), neither runs. It starts no goroutine
//     of its own, reads time only through its Clock, and expires once,
//     with the Cause that ran out; after Stop it never expires.
//   - Clock is time as the call clock and the sampling rate limit read it;
//     RealClock is the wall clock. deadlinetest.Clock is time moved by
//     hand, for tests.
//
// deadline imports the standard library only; deadlinetest likewise, and
// no package but tests imports deadlinetest (deps_test.go).
package deadline
