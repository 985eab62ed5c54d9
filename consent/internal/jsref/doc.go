// Package jsref runs testdata/consent/canonical.js — the independent
// JavaScript reference for canonical JSON and the v1 consent digest,
// written from the contract's words — in a real node process, for the
// differential tests of package consent and package canonjson. It is
// imported by tests only.
package jsref
