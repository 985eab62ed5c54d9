package config

import (
	"path/filepath"
	"testing"
)

// The oauth field: true, false or a table of the pre-registered client and
// its settings; every mistake at its own key or value, before anything is
// dialled.
func TestRuleOAuth(t *testing.T) {
	o := "mcp_servers[0].oauth"
	runRule(t, []ruleCase{
		{name: "a literal client secret", files: map[string]string{globalTOML: httpReg("a") + "oauth = { client_id = \"c\", client_secret = \"hunter2\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 44, field: o + ".client_secret", msg: "{{secrets.NAME}}"},
		}},
		{name: "a secret without a client", files: map[string]string{globalTOML: httpReg("a") + "oauth = { client_secret = \"{{secrets.x}}\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 11, field: o + ".client_secret", msg: "client_id"},
		}},
		{name: "a bad port, scope, metadata url and local address", files: map[string]string{globalTOML: httpReg("a") +
			"oauth = { client_id = \"c\", callback_port = 80, scopes = [\"a b\"], client_metadata_url = \"http://x.example/m\", allow_local_auth = [\"localhost\"] }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 44, field: o + ".callback_port", msg: "1024"},
			{code: CodeOAuth, file: globalTOML, line: 5, col: 58, field: o + ".scopes[0]", msg: "one token"},
			{code: CodeOAuth, file: globalTOML, line: 5, col: 88, field: o + ".client_metadata_url", msg: "https"},
			{code: CodeOAuth, file: globalTOML, line: 5, col: 130, field: o + ".allow_local_auth[0]", msg: "host:port"},
		}},
		{name: "an unknown key", files: map[string]string{globalTOML: httpReg("a") + "oauth = { client = \"c\" }\n"}, want: []want{
			{code: CodeUnknownKey, file: globalTOML, line: 5, col: 11, field: o + ".client"},
		}},
		{name: "a string", files: map[string]string{globalTOML: httpReg("a") + "oauth = \"yes\"\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 9, field: o, msg: "true, false or a table"},
		}},
		{name: "beside a static Authorization header", files: map[string]string{globalTOML: httpReg("a") + "headers = { Authorization = \"Bearer {{secrets.t}}\" }\noauth = true\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 6, col: 1, field: o, msg: "static Authorization"},
		}},
		{name: "on websocket", files: map[string]string{globalTOML: "[[mcp_servers]]\nname = \"w\"\ntransport = \"websocket\"\nurl = \"ws://localhost:9/\"\nallow_local_endpoint = true\noauth = true\n"}, want: []want{
			{code: CodeOAuthTransport, file: globalTOML, line: 6, col: 1, field: o, msg: "Streamable HTTP"},
		}},
		{name: "an unknown grant", files: map[string]string{globalTOML: httpReg("a") + "oauth = { grant = \"password\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 19, field: o + ".grant", msg: "client_credentials"},
		}},
		{name: "a private key without the machine grant", files: map[string]string{globalTOML: httpReg("a") + "oauth = { client_id = \"c\", private_key = \"{{secrets.k}}\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 28, field: o + ".private_key", msg: "grant"},
		}},
		{name: "the machine grant without a credential", files: map[string]string{globalTOML: httpReg("a") + "oauth = { grant = \"client_credentials\", client_id = \"c\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 11, field: o + ".grant", msg: "exactly one"},
		}},
		{name: "a literal private key", files: map[string]string{globalTOML: httpReg("a") + "oauth = { grant = \"client_credentials\", client_id = \"c\", private_key = \"pem\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 72, field: o + ".private_key", msg: "{{secrets.NAME}}"},
		}},
		{name: "a workload grant without its assertion", files: map[string]string{globalTOML: httpReg("a") + "oauth = { grant = \"jwt_bearer\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 11, field: o + ".grant", msg: "assertion"},
		}},
		{name: "an assertion without the workload grant", files: map[string]string{globalTOML: httpReg("a") + "oauth = { assertion = \"{{secrets.w}}\" }\n"}, want: []want{
			{code: CodeOAuth, file: globalTOML, line: 5, col: 11, field: o + ".assertion", msg: "jwt_bearer"},
		}},
		{name: "valid, on an agent's inline entry too", files: map[string]string{
			globalTOML: httpReg("a") + "oauth = { client_id = \"c\", client_secret = \"{{secrets.s}}\", scopes = [\"mcp:read\"], callback_port = 53682, client_metadata_url = \"https://me.example/client.json\", allow_local_auth = [\"localhost:9000\"] }\n",
			agentYAML:  "mcp_servers:\n  - id: b\n    transport: http\n    url: https://example.com/mcp\n    oauth: true\n",
		}},
	})
}

func TestOAuthFieldIsRead(t *testing.T) {
	root := writeTree(t, map[string]string{globalTOML: httpReg("a") + "oauth = { client_id = \"c\", client_secret = \"{{secrets.s}}\", scopes = [\"mcp:read\"], callback_port = 53682, allow_local_auth = [\"localhost:9000\"] }\n"})
	cfg, err := Load(filepath.Join(root, "home"), filepath.Join(root, "project"))
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.Servers[0].OAuth
	if o == nil || o.ClientID != "c" || o.ClientSecretName() != "s" || o.CallbackPort != 53682 || len(o.Scopes) != 1 || o.AllowLocalAuth[0] != "localhost:9000" {
		t.Fatalf("oauth read as %+v", o)
	}
}

func TestOAuthMachineGrantIsRead(t *testing.T) {
	root := writeTree(t, map[string]string{globalTOML: httpReg("a") + "oauth = { grant = \"client_credentials\", client_id = \"ci\", private_key = \"{{secrets.ci_key}}\", scopes = [\"mcp:read\"] }\n"})
	cfg, err := Load(filepath.Join(root, "home"), filepath.Join(root, "project"))
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.Servers[0].OAuth
	if o == nil || o.Grant != "client_credentials" || o.ClientID != "ci" || o.PrivateKeyName() != "ci_key" || o.ClientSecretName() != "" {
		t.Fatalf("oauth read as %+v", o)
	}
}
