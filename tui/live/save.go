package live

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/relavium/relavium/atomicfile"
	"github.com/relavium/relavium/tui/backend"
)

// Saving a result's binary parts (images, audio, resource blobs) to files:
// <home>/saved/<time>-<job>-<n>.<ext>, 0600 in 0700, each written whole or
// not at all (package atomicfile). The file name is relavium's own, never
// the server's: a server cannot choose where bytes land.

// Save writes data as part n of job under <home>/saved and returns the
// path.
func (l *Adapter) Save(job string, n int, mimeType string, data []byte) (string, error) {
	dir := filepath.Join(l.core.Home(), "saved")
	fail := func(err error) (string, error) {
		return "", &backend.Error{ErrCode: backend.CodeSaveFailed, Msg: "cannot save in " + dir, Cause: err}
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fail(err)
	}
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	name := fmt.Sprintf("%s-%s-%d%s", now().UTC().Format("20060102T150405.000Z"), job, n, SavedExt(mimeType))
	path := filepath.Join(dir, name)
	if err := atomicfile.Write(path, data); err != nil {
		return fail(err)
	}
	return path, nil
}

// SavedExt is the file extension of a MIME type (".bin" for any other).
func SavedExt(mimeType string) string {
	mt, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(mimeType)), ";")
	switch mt {
	case "image/png":
		return ".png"
	case "image/jpeg", "image/jpg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "image/webp":
		return ".webp"
	case "image/svg+xml":
		return ".svg"
	case "audio/wav", "audio/x-wav", "audio/wave":
		return ".wav"
	case "audio/mpeg", "audio/mp3":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	case "application/pdf":
		return ".pdf"
	case "application/json":
		return ".json"
	}
	if strings.HasPrefix(mt, "text/") {
		return ".txt"
	}
	return ".bin"
}
