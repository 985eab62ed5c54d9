package clientside

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/relavium/relavium/fault"
	"github.com/relavium/relavium/host/failure"
)

// Roots: the directories the person lets servers see (roots/list). The
// project directory is the default; the TUI edits the list, --root sets it
// headless. A root is a directory the person named, with every symlink
// resolved: the list never points anywhere the person did not choose, and
// a symlink cannot later be re-aimed under a server's feet.

// Root is one offered directory.
type Root struct {
	Path string `json:"path"` // absolute, symlinks resolved
	URI  string `json:"uri"`  // its file:// URI, as servers see it
}

// MCP is the root as go-sdk offers it.
func (r Root) MCP() *mcp.Root { return &mcp.Root{URI: r.URI, Name: filepath.Base(r.Path)} }

// ResolveRoot checks that dir is an existing directory and returns it as a
// root: absolute, symlinks resolved. A relative dir is refused (the caller
// resolves it against what the person meant: the working directory).
func ResolveRoot(dir string) (Root, error) {
	bad := func(why string, cause error) (Root, error) {
		return Root{}, &failure.Error{Base: fault.Base{ErrCode: failure.CodeBadRoot, Msg: "root " + dir + ": " + why, Cause: cause, Exit: fault.ExitUsage}}
	}
	if dir == "" || !filepath.IsAbs(dir) {
		return bad("not an absolute path", nil)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(dir))
	if err != nil {
		return bad("does not exist or cannot be read", err)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return bad("cannot be read", err)
	}
	if !fi.IsDir() {
		return bad("not a directory", nil)
	}
	return Root{Path: real, URI: (&url.URL{Scheme: "file", Path: filepath.ToSlash(real)}).String()}, nil
}

// ResolveRoots resolves dirs in order, each once.
func ResolveRoots(dirs []string) ([]Root, error) {
	roots := []Root{}
	for _, d := range dirs {
		r, err := ResolveRoot(d)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	return roots, nil
}
