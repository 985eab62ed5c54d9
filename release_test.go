package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReleaseTargetsAgree holds the release config and CI's cross build
// together: .goreleaser.yaml's goos × goarch are exactly the Makefile's
// CROSS targets (linux, darwin and windows on amd64 and arm64), and the
// release stamps the version the way make build does.
func TestReleaseTargetsAgree(t *testing.T) {
	cfg := string(readDoc(t, ".goreleaser.yaml"))
	list := func(key string) []string {
		m := regexp.MustCompile(`(?m)^\s+` + key + `: \[([a-z0-9, ]+)\]$`).FindStringSubmatch(cfg)
		if m == nil {
			t.Fatalf(".goreleaser.yaml has no %s: [...] line", key)
		}
		var out []string
		for _, v := range strings.Split(m[1], ",") {
			out = append(out, strings.TrimSpace(v))
		}
		return out
	}
	var release []string
	for _, goos := range list("goos") {
		for _, arch := range list("goarch") {
			release = append(release, goos+"/"+arch)
		}
	}
	mk := string(readDoc(t, "Makefile"))
	m := regexp.MustCompile(`(?m)^CROSS \?= (.+)$`).FindStringSubmatch(mk)
	if m == nil {
		t.Fatal("the Makefile has no CROSS ?= line")
	}
	cross := strings.Fields(m[1])
	slices.Sort(release)
	slices.Sort(cross)
	want := []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}
	if !slices.Equal(release, want) || !slices.Equal(cross, want) {
		t.Errorf("release targets %v, make cross %v; want both %v", release, cross, want)
	}
	if !strings.Contains(cfg, "-X main.version={{ .Version }}") || !strings.Contains(mk, "-X main.version=$(VERSION)") {
		t.Error("the release and make build must both stamp main.version")
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^make cross$`).Match(ci) {
		t.Error(".ci/run does not run make cross")
	}
}
