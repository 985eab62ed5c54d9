// Package regularfile is the one way relavium reads a file it did not
// write this run (a config, a lock, a recording, a client's mcp.json, a
// token record, a workflow): opened without blocking, so a named pipe or a
// device a hostile checkout puts at the path cannot hang the reader; refused
// unless it is a regular file; read whole only up to a bound the caller
// states, so a huge file is refused before it is held.
//
// Its errors say what was wrong for a person (the path, what the file is,
// the bound) and are typed (NotRegularError, TooLargeError, and the
// fs.ErrNotExist of a missing file, matched with errors.Is) so each caller
// raises its own code.
//
// Allowed imports: the standard library only.
package regularfile
