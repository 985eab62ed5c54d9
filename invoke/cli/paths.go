package cli

import (
	"path/filepath"
	"strings"

	"github.com/relavium/relavium/host/config"
)

// RelPath is p relative to base when p lies below it (how a file is named
// to a person), else p as it is.
func RelPath(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

// ProblemLine is a config problem as a person reads it: its file named
// relative to the project.
func ProblemLine(project string, p config.Problem) string {
	p.File = RelPath(project, p.File)
	return p.String()
}
