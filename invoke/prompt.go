package invoke

// CanPrompt is the one function that decides whether anyone can be asked:
// a TTY on stdin AND on stdout, no --json, and no CI variable in the
// environment (docs/mcp-integration.md "When there is no one to ask"). Everything in relavium
// that would prompt — consent, gates, destructive confirmations, elicitation —
// goes through it; when it is false those paths fail closed (exit 2) instead.
func CanPrompt(stdinTTY, stdoutTTY, jsonMode bool, lookupEnv func(string) (string, bool)) bool {
	if !stdinTTY || !stdoutTTY || jsonMode {
		return false
	}
	if lookupEnv != nil {
		if _, ci := lookupEnv("CI"); ci {
			return false
		}
	}
	return true
}
