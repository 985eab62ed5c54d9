package cli

import (
	"path/filepath"
	"strings"
)

// RelPath is p relative to base when p lies below it (how a file is named
// to a person), else p as it is.
func RelPath(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}
