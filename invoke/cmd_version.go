package invoke

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/relavium/relavium/invoke/cli"
)

// VersionInfo is the data of `relavium version`.
type VersionInfo struct {
	Version string `json:"version"`
	Go      string `json:"go"`
	OS      string `json:"os"`
	Arch    string `json:"arch"`
}

// WriteHuman prints one line.
func (v VersionInfo) WriteHuman(w io.Writer) error {
	_, err := fmt.Fprintf(w, "relavium %s (%s %s/%s)\n", v.Version, v.Go, v.OS, v.Arch)
	return err
}

func runVersion(_ context.Context, inv *cli.Invocation) (any, error) {
	return VersionInfo{Version: inv.Env.Version, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}, nil
}
