package host

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

func (r Root) mcp() *mcp.Root { return &mcp.Root{URI: r.URI, Name: filepath.Base(r.Path)} }

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

// resolveRoots resolves dirs in order, each once.
func resolveRoots(dirs []string) ([]Root, error) {
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

// Roots is the list offered now (nil when the host offers no roots).
func (h *Host) Roots() []Root {
	h.client.mu.Lock()
	defer h.client.mu.Unlock()
	return slices.Clone(h.client.roots)
}

// SetRoots replaces the offered roots with dirs (all of them resolved
// first: one bad directory changes nothing) and tells every connected
// server (notifications/roots/list_changed). It is refused (E905) on a
// host started without roots: the capability was not declared.
func (h *Host) SetRoots(dirs []string) error {
	if h.opts.Roots == nil {
		return &failure.Error{Base: fault.Base{ErrCode: failure.CodeBadRoot, Msg: "this session offers no roots", Exit: fault.ExitUsage}}
	}
	roots, err := resolveRoots(dirs)
	if err != nil {
		return err
	}
	cs := &h.client
	cs.mu.Lock()
	old := cs.roots
	cs.roots = roots
	clients := make([]*mcp.Client, 0, len(cs.clients))
	for _, cl := range cs.clients {
		clients = append(clients, cl)
	}
	cs.mu.Unlock()
	var gone []string
	for _, r := range old {
		if !slices.Contains(roots, r) {
			gone = append(gone, r.URI)
		}
	}
	var added []*mcp.Root
	for _, r := range roots {
		if !slices.Contains(old, r) {
			added = append(added, r.mcp())
		}
	}
	for _, cl := range clients { // each change notifies that client's session
		if len(gone) > 0 {
			cl.RemoveRoots(gone...)
		}
		if len(added) > 0 {
			cl.AddRoots(added...)
		}
	}
	return nil
}
