// Package consent implements spec/mcp-integration.md "Consent before a local
// stdio spawn": the v1 fingerprint, command resolution, the append-only grant
// store, the shared environment denylist, the decision API and digest diffs.
// It depends on the standard library and golang.org/x/sys only.
package consent
