// Package deadlinetest is time moved by hand for the tests of host's call
// clock and of everything that reads a deadline.Clock: Advance fires the
// timers that came due, in the test's goroutine, in order.
//
// It imports the standard library only, and only tests import it
// (host/deadline's deps_test.go).
package deadlinetest
