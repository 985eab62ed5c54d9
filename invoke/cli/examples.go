package cli

// CommandExamples are the --help examples of every command a person runs,
// by the command's name: each one parses against the command table as it
// stands (TestEveryCommandHasAnExampleThatParses), so help never shows a
// flag that is not there.
func CommandExamples() map[string][]string {
	return map[string][]string{
		"session":  {"relavium", "relavium session --agent reviewer"},
		"demo":     {"relavium demo", "relavium demo --json --allow-mcp-stdio v1:DIGEST"},
		"mcp ls":   {"relavium mcp ls", "relavium mcp ls --stdio \"npx -y @modelcontextprotocol/server-everything\"", "relavium mcp ls --json"},
		"mcp ping": {"relavium mcp ping", "relavium mcp ping --url https://mcp.example.com/mcp"},
		"mcp call": {"relavium mcp call echo message=hi --yes", "relavium mcp call mcp_fs_read_text_file path=README.md",
			"relavium mcp call echo message=hi --yes --stdio \"node server.js\" --json"},
		"mcp bench":       {"relavium mcp bench echo message=hi --rate 100 --duration 10s --yes"},
		"mcp resources":   {"relavium mcp resources", "relavium mcp resources demo --json"},
		"mcp prompts":     {"relavium mcp prompts", "relavium mcp prompts demo"},
		"mcp prompt":      {"relavium mcp prompt demo greeting name=Ada"},
		"mcp read":        {"relavium mcp read demo demo://guide"},
		"mcp complete":    {"relavium mcp complete demo prompt:greeting name A"},
		"mcp tasks":       {"relavium mcp tasks demo"},
		"mcp accept":      {"relavium mcp accept mcp_demo_echo --diff", "relavium mcp accept mcp_demo_echo", "relavium mcp accept --all"},
		"mcp lock":        {"relavium mcp lock"},
		"mcp check":       {"relavium mcp check", "relavium mcp check --json"},
		"mcp lint":        {"relavium mcp lint", "relavium mcp lint --json"},
		"mcp serve":       {"relavium mcp serve"},
		"replay":          {"relavium replay session.ndjson"},
		"run":             {"relavium run triage --input issue=42", "relavium run triage --json --events"},
		"workflow ls":     {"relavium workflow ls"},
		"consent ls":      {"relavium consent ls"},
		"consent digest":  {"relavium consent digest", "relavium consent digest --json"},
		"consent grant":   {"relavium consent grant fs", "relavium consent grant v1:DIGEST --yes"},
		"consent revoke":  {"relavium consent revoke v1:DIGEST --yes"},
		"auth login":      {"relavium auth login linear"},
		"auth ls":         {"relavium auth ls"},
		"auth logout":     {"relavium auth logout linear"},
		"config validate": {"relavium config validate"},
		"config sources":  {"relavium config sources"},
		"config import":   {"relavium config import .mcp.json", "relavium config import .vscode/mcp.json --write"},
		"config export":   {"relavium config export fs --format vscode"},
		"version":         {"relavium version"},
		"completion":      {"relavium completion bash", "relavium completion fish"},
		"man":             {"relavium man"},
		"help":            {"relavium help mcp call", "relavium help consent-and-ci"},
	}
}
