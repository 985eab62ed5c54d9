package main

import (
	"runtime/debug"
	"strings"
)

// version is the stamp `make build` (and the release build) sets with
// -ldflags "-X main.version=$(git describe --tags --always --dirty)"; empty
// in any other build. It is written only by the linker.
var version string

// readBuildInfo is what the go command recorded in this binary (nil when
// it recorded nothing).
func readBuildInfo() *debug.BuildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return info
}

// buildVersion says which build this is, first answer wins:
//   - the stamp make build set (`git describe`: v1.2.0, v1.2.0-3-gabc1234-dirty);
//   - the module version the go command recorded: `go install
//     github.com/relavium/relavium@v1.2.0` records v1.2.0, and a build in a
//     checkout with VCS stamping records the tag or a pseudo-version;
//   - "dev", with the recorded VCS revision (and "-dirty") when there is one.
//
// So a tagged build never says just "dev".
func buildVersion(stamp string, info *debug.BuildInfo) string {
	if s := strings.TrimSpace(stamp); s != "" {
		return s
	}
	if info == nil {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "dev"
	}
	return "dev-" + rev[:min(12, len(rev))] + dirty
}
