package cli

import (
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/relavium/relavium/host/wire"
)

// recordFlag reads --record and its other name --trace (issue 16's trace
// and issue 18's recording are one recorder): the file, absolute, checked
// before anything connects.
func recordFlag(env *Env, fs *pflag.FlagSet) (string, error) {
	rec, _ := fs.GetString("record")
	trace, _ := fs.GetString("trace")
	if fs.Changed("record") && fs.Changed("trace") && rec != trace {
		return "", wire.PathError("--record and --trace are one flag under two names; give one")
	}
	if trace != "" {
		rec = trace
	}
	if (fs.Changed("record") || fs.Changed("trace")) && rec == "" {
		return "", wire.PathError("--record is empty")
	}
	if rec == "" {
		return "", nil
	}
	if !filepath.IsAbs(rec) {
		rec = filepath.Join(env.WorkDir, rec)
	}
	return rec, wire.CheckPath(rec)
}
