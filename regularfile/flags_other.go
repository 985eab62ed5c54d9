//go:build !unix

package regularfile

const (
	oNoFollow = 0
	oCloexec  = 0
)
