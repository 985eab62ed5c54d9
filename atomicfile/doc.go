// Package atomicfile writes a file so that a reader, or the next run after a
// crash, finds the old content or the whole new content, never part of it:
// the content goes to a temp file in the same directory (created 0600),
// which is synced, closed and renamed over the path, and the directory is
// synced. On any failure the temp file is removed and the path is left as
// it was. A symlink at the path is replaced itself, never followed.
//
// It is the one way relavium replaces a file: the tool-pin store, a call's
// --output file and a TUI session export.
//
// Allowed imports: the standard library only.
package atomicfile
