package workflow

// exitUsage is the exit class of an authored or usage mistake (2), as the
// CLI's exit codes define it; workflow cannot import the CLI. The codes a
// workflow raises are declared in engine's errors.go beside engine.Error.
const exitUsage = 2
