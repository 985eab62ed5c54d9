package lint

// Severities, most severe first.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
	SeverityNote    = "note"
)

// rank orders severities: a larger rank is more severe.
func rank(sev string) int {
	switch sev {
	case SeverityError:
		return 3
	case SeverityWarning:
		return 2
	case SeverityNote:
		return 1
	}
	return 0
}

// Rule is one check.
type Rule struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
}

// Rule ids. They are stable: a suppression names one.
const (
	RuleInstruction  = "RL001"
	RuleSecretAccess = "RL002"
	RuleOtherTool    = "RL003"
	RuleComment      = "RL004"
	RuleHiddenText   = "RL005"
	RuleURL          = "RL006"
	RuleDataURI      = "RL007"
	RuleOversize     = "RL008"
	RuleWhitespace   = "RL009"
	RuleShadowServer = "RL010"
	RuleShadowKnown  = "RL011"
	RuleAnnotation   = "RL012"
	RuleOpenSchema   = "RL013"
	RuleSecretValue  = "RL014"
	RuleUnread       = "RL015"
)

// Rules is the rule table, in id order (docs/ci-gates.md's lint table says the
// same).
func Rules() []Rule {
	return []Rule{
		{RuleInstruction, "instruction-to-model", SeverityError, "text that instructs the model: \"ignore previous instructions\", \"do not tell the user\", <IMPORTANT> blocks, \"before using this tool you must\""},
		{RuleSecretAccess, "secret-access", SeverityError, "text that asks for files or secrets: ~/.ssh, id_rsa, .env, credentials files, mcp.json, \"read … the api key\" (not in a sentence saying they are rejected)"},
		{RuleOtherTool, "other-server-tool", SeverityWarning, "text that names a tool another declared server offers (a tool steering the model toward another server's tool)"},
		{RuleComment, "hidden-comment", SeverityError, "an HTML or markdown comment, or CSS-hidden markup, in text a person rarely sees rendered"},
		{RuleHiddenText, "hidden-text", SeverityError, "invisible or misleading characters: zero-width, bidi controls, Unicode tags, control characters (a line break or tab in a description is layout, not hidden)"},
		{RuleURL, "url", SeverityWarning, "a URL in text (where a model may be sent, or data exfiltrated to)"},
		{RuleDataURI, "data-uri", SeverityError, "a data: URI in text (an embedded payload)"},
		{RuleOversize, "oversize-description", SeverityWarning, "a description over 2048 bytes (instructions hide in bulk)"},
		{RuleWhitespace, "whitespace-description", SeverityWarning, "a description that is mostly whitespace, or pushes text down with runs of blank lines"},
		{RuleShadowServer, "shadows-server-tool", SeverityWarning, "a tool named like a tool of another declared server (case-insensitively): a model may pick the wrong one (relavium namespaces both; other clients may not)"},
		{RuleShadowKnown, "shadows-well-known-tool", SeverityWarning, "a tool named like a well-known tool (read_file, bash, fetch, …) that a model may pick by name, by a server that is not of that kind (a filesystem server owns read_file)"},
		{RuleAnnotation, "annotation-contradiction", SeverityError, "annotations that contradict the name or description: readOnlyHint on delete…, destructiveHint false on wipe…"},
		{RuleOpenSchema, "schema-accepts-anything", SeverityWarning, "an input schema that accepts anything: no properties and additionalProperties open, or no object schema at all"},
		{RuleSecretValue, "secret-default", SeverityError, "a schema default, example, const or enum that looks like a credential (sk-…, ghp_…, AKIA…, a private key, a JWT), or any default of a credential-named property"},
		{RuleUnread, "unread-definition", SeverityError, "a tool discovery refused whose definition lint could not read (its tools/list page was over the 4 MiB the wire recorder keeps, or paging stopped before it): it was not checked"},
	}
}

func ruleByID(id string) Rule {
	for _, r := range Rules() {
		if r.ID == id {
			return r
		}
	}
	return Rule{ID: id, Severity: SeverityError}
}
