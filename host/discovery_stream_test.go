package host

import (
	"runtime"
	"slices"
	"testing"

	"github.com/relavium/relavium/consent"
	"github.com/relavium/relavium/host/discovery"
	"github.com/relavium/relavium/internal/testbin"
)

// Through the host's own stdio transport (the depth gauge, the capture,
// the SDK): a tools/list page nested a million levels deep is judged tool
// by tool — the deep tools are skipped, the server is not failed over them
// — and a 14.6 MiB page costs far less than the 100 MiB bound.
func TestStdioDiscoveryPagesAreJudgedPerTool(t *testing.T) {
	bin := testbin.Build(t, "./testdata/servers/hostile-discovery")
	server := func(name string, args ...string) Endpoint {
		r, err := consent.Resolve(consent.Declaration{Name: name, Command: bin, Args: args, Cwd: t.TempDir()}, "")
		if err != nil {
			t.Fatal(err)
		}
		return Endpoint{Name: name, Transport: TransportStdio, Stdio: r}
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h := startHost(t, Options{Servers: []Endpoint{
		server("deep", "-case", "deep"),
		server("giant", "-case", "giant-line", "-variant", "desc"),
	}})
	runtime.ReadMemStats(&after)

	var names []string
	for _, d := range h.Tools() {
		names = append(names, d.Name)
	}
	slices.Sort(names)
	want := []string{"mcp_deep_shallow_a", "mcp_deep_shallow_b", "mcp_giant_after_1", "mcp_giant_after_2", "mcp_giant_before"}
	if !slices.Equal(names, want) {
		t.Errorf("tools %q, want %q", names, want)
	}
	codes := map[string]string{}
	for _, sk := range h.Skipped() {
		codes[sk.Server+"/"+sk.Tool] = sk.Code
	}
	if codes["deep/deep_million"] != discovery.ReasonToolTooLarge || codes["deep/deep_30k"] != discovery.ReasonSchemaTooDeep || codes["giant/giant"] != discovery.ReasonToolTooLarge {
		t.Errorf("skipped %v", codes)
	}
	for _, row := range h.Servers() {
		if row.ErrorCode != "" {
			t.Errorf("server %s failed: %+v", row.Name, row)
		}
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 100<<20 {
		t.Errorf("starting both servers allocated %d MiB, bound 100 MiB", alloc>>20)
	} else {
		t.Logf("starting both servers allocated %d MiB", alloc>>20)
	}
}
