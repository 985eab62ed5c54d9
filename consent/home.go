package consent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/relavium/relavium/filelock"
)

// CheckHome refuses a relavium home that someone else could change under
// relavium: one owned by another user, one group or others can write (they
// could replace any file in it — the grant store, the config, the machine
// token), or one that is not a directory. A home that does not exist yet
// passes: whoever creates it creates it 0700. A symlinked home is resolved
// and its target is checked (the link itself is the person's own
// choice of where the home lives; what must be safe is the directory the
// files end up in). Read-only access for group or others (0755) is allowed:
// the files that must stay private are 0600 on their own.
//
// It is defined once here and called where the home is first used (invoke's
// Main, before any command touches it) and again by every store of the home
// before it reads or writes.
func CheckHome(home string) error {
	target, err := filepath.EvalSymlinks(home)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	shown := quoteArg(home)
	if err == nil && target != filepath.Clean(home) {
		shown += " (a link to " + quoteArg(target) + ")"
	}
	var st fs.FileInfo
	if err == nil {
		st, err = os.Stat(target)
	}
	if err != nil {
		return &Error{ErrCode: CodeHomeUnsafe, Msg: fmt.Sprintf("cannot check the relavium home %s", shown), Cause: err}
	}
	fix := quoteArg(target)
	switch uid, known := filelock.Owner(st); {
	case !st.IsDir():
		return &Error{ErrCode: CodeHomeUnsafe, Msg: fmt.Sprintf("the relavium home %s is not a directory (set RELAVIUM_HOME to a directory of your own)", shown)}
	case known && uid != os.Geteuid():
		return &Error{ErrCode: CodeHomeUnsafe, Msg: fmt.Sprintf("the relavium home %s is owned by uid %d, not by you (uid %d): its owner could change your grants, config and token; use a home of your own (RELAVIUM_HOME) or chown it",
			shown, uid, os.Geteuid())}
	case filelock.ModeBitsMeaningful && st.Mode().Perm()&0o022 != 0:
		return &Error{ErrCode: CodeHomeUnsafe, Msg: fmt.Sprintf("the relavium home %s has mode %04o: group or others can write it and so replace your grants, config and token (chmod 700 %s)",
			shown, st.Mode().Perm(), fix)}
	}
	return nil
}
