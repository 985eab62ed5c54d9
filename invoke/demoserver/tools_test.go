package demoserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image/png"
	"maps"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/relavium/relavium/internal/golden"
)

// answeringClient answers every elicitation with accept(content) and every
// sampling request with a fixed text.
func answeringClient(content map[string]any) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{RootsV2: &mcp.RootCapabilities{ListChanged: true},
			Elicitation: &mcp.ElicitationCapabilities{Form: &mcp.FormElicitationCapabilities{}, URL: &mcp.URLElicitationCapabilities{}}},
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			if req.Params.Mode == "url" {
				return &mcp.ElicitResult{Action: "accept"}, nil
			}
			// A fresh map each time: the SDK fills schema defaults into it.
			return &mcp.ElicitResult{Action: "accept", Content: fillRequired(maps.Clone(content), req.Params.RequestedSchema)}, nil
		},
		CreateMessageHandler: func(context.Context, *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "test-model", Content: &mcp.TextContent{Text: "sampled text"}}, nil
		},
	}
}

// fillRequired answers every required property of schema that content
// lacks: true for a boolean, "blue" for a string.
func fillRequired(content map[string]any, schema any) map[string]any {
	var sc struct {
		Properties map[string]struct {
			Type string `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	b, _ := json.Marshal(schema)
	_ = json.Unmarshal(b, &sc)
	for _, name := range sc.Required {
		if _, ok := content[name]; ok {
			continue
		}
		switch sc.Properties[name].Type {
		case "boolean":
			content[name] = true
		case "string":
			content[name] = "blue"
		}
	}
	return content
}

func hasType[T mcp.Content](res *mcp.CallToolResult) []T {
	var out []T
	for _, c := range res.Content {
		if v, ok := c.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

// toolCase is how the test calls one tool and what it must return.
type toolCase struct {
	args  any
	check func(t *testing.T, res *mcp.CallToolResult)
}

func wantText(sub string) func(*testing.T, *mcp.CallToolResult) {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		if res.IsError {
			t.Fatalf("unexpected isError: %s", textOf(t, res))
		}
		if got := textOf(t, res); !strings.Contains(got, sub) {
			t.Fatalf("text %q does not contain %q", got, sub)
		}
	}
}

func wantError(sub string) func(*testing.T, *mcp.CallToolResult) {
	return func(t *testing.T, res *mcp.CallToolResult) {
		t.Helper()
		if !res.IsError {
			t.Fatalf("want isError, got %#v", res.Content)
		}
		if got := textOf(t, res); !strings.Contains(got, sub) {
			t.Fatalf("error text %q does not contain %q", got, sub)
		}
	}
}

func wantPNG(t *testing.T, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("image is not a PNG: %v", err)
	}
	if img.Bounds().Empty() {
		t.Fatal("image is empty")
	}
}

// toolCases covers every tool the demo server lists; TestEveryToolIsCalled
// fails when a tool is added without a case here.
func toolCases() map[string]toolCase {
	none := map[string]any{}
	return map[string]toolCase{
		"test_simple_text": {none, wantText("This is a simple text response for testing.")},
		"test_image_content": {none, func(t *testing.T, res *mcp.CallToolResult) {
			imgs := hasType[*mcp.ImageContent](res)
			if len(imgs) != 1 || imgs[0].MIMEType != "image/png" {
				t.Fatalf("want one image/png block, got %#v", res.Content)
			}
			wantPNG(t, imgs[0].Data)
		}},
		"test_audio_content": {none, func(t *testing.T, res *mcp.CallToolResult) {
			au := hasType[*mcp.AudioContent](res)
			if len(au) != 1 || au[0].MIMEType != "audio/wav" || !bytes.HasPrefix(au[0].Data, []byte("RIFF")) ||
				!bytes.Contains(au[0].Data[:16], []byte("WAVE")) {
				t.Fatalf("want one audio/wav RIFF block, got %#v", res.Content)
			}
		}},
		"test_embedded_resource": {none, func(t *testing.T, res *mcp.CallToolResult) {
			er := hasType[*mcp.EmbeddedResource](res)
			if len(er) != 1 || er[0].Resource.URI != "test://embedded-resource" || er[0].Resource.MIMEType != "text/plain" || er[0].Resource.Text == "" {
				t.Fatalf("want the embedded text resource, got %#v", res.Content)
			}
		}},
		"test_multiple_content_types": {none, func(t *testing.T, res *mcp.CallToolResult) {
			if len(hasType[*mcp.TextContent](res)) != 1 || len(hasType[*mcp.ImageContent](res)) != 1 || len(hasType[*mcp.EmbeddedResource](res)) != 1 {
				t.Fatalf("want text + image + resource, got %#v", res.Content)
			}
		}},
		"test_tool_with_logging":            {none, wantText("executed successfully")},
		"test_tool_with_progress":           {none, wantText("Progress reported")},
		"test_error_handling":               {none, wantError("intentionally returns an error")},
		"test_sampling":                     {map[string]any{"prompt": "say hi"}, wantText("LLM response: sampled text")},
		"test_elicitation":                  {map[string]any{"message": "who are you?"}, wantText(`"username":"ada"`)},
		"test_elicitation_sep1034_defaults": {none, wantText(`"age":30,"email":"ada@example.com","name":"ada","score":95.5,"status":"active","username":"ada","verified":true}`)},
		"test_elicitation_sep1330_enums":    {none, wantText("action=accept")},
		"json_schema_2020_12_tool":          {map[string]any{"name": "x"}, wantText(`{"name":"x"}`)},
		"test_reconnection":                 {none, wantText("completed successfully")},
		"echo":                              {map[string]any{"message": "hello"}, wantText("hello")},
		"add_numbers": {map[string]any{"a": 2, "b": 3}, func(t *testing.T, res *mcp.CallToolResult) {
			wantText("The sum of 2 and 3 is 5.")(t, res)
			if m, ok := res.StructuredContent.(map[string]any); !ok || m["sum"] != 5.0 {
				t.Fatalf("structured content %#v, want {sum: 5}", res.StructuredContent)
			}
		}},
		"get_weather": {map[string]any{"city": "Lisbon", "days": 2}, func(t *testing.T, res *mcp.CallToolResult) {
			m, ok := res.StructuredContent.(map[string]any)
			if !ok || m["city"] != "Lisbon" || m["units"] != "celsius" || m["fictional"] != true {
				t.Fatalf("structured content %#v", res.StructuredContent)
			}
			if f, _ := m["forecast"].([]any); len(f) != 2 {
				t.Fatalf("forecast %#v, want 2 days", m["forecast"])
			}
			if !strings.Contains(textOf(t, res), `"city":"Lisbon"`) {
				t.Fatalf("text block does not mirror the structured content: %s", textOf(t, res))
			}
		}},
		"long_operation": {map[string]any{"steps": 3, "duration_ms": 30}, wantText("3 steps")},
		"emit_logs":      {map[string]any{"count": 2, "interval_ms": 0}, wantText("Sent 2 log messages.")},
		"ask_user":       {none, wantText("Hello, ada!")},
		"get_resource_links": {map[string]any{"count": 4}, func(t *testing.T, res *mcp.CallToolResult) {
			links := hasType[*mcp.ResourceLink](res)
			if len(links) != 4 {
				t.Fatalf("want 4 resource links, got %#v", res.Content)
			}
			for _, l := range links {
				if l.URI == "" || l.Name == "" || l.MIMEType == "" {
					t.Fatalf("incomplete link %#v", l)
				}
			}
		}},
		"always_fails": {map[string]any{"reason": "boom"}, wantError("boom")},
		"create_note": {map[string]any{"title": "Groceries", "body": "eggs"}, func(t *testing.T, res *mcp.CallToolResult) {
			wantText(`Saved note 1, "Groceries".`)(t, res)
			if l := hasType[*mcp.ResourceLink](res); len(l) != 1 || l[0].URI != "demo://notes/1" {
				t.Fatalf("want a link to demo://notes/1, got %#v", res.Content)
			}
		}},
		"delete_file":                                {map[string]any{"path": "/etc/passwd"}, wantText("Nothing was deleted")},
		"touch_watched_resource":                     {none, wantText("were notified")},
		"list_roots":                                 {none, wantText("The client offers no roots.")},
		"sign_in":                                    {none, wantText("Sign-in answer: accept")},
		"toggle_extra_tool":                          {none, wantText("Added extra_tool")},
		"remote_ref_schema":                          {map[string]any{"config": map[string]any{}}, wantText("called with")},
		"draft04_schema":                             {map[string]any{"amount": 1}, wantText("called with")},
		"control_char_property":                      {map[string]any{"path\n": "x"}, wantText("called with")},
		"test_input_required_result_elicitation":     {none, wantText("Hello, ada!")},
		"test_input_required_result_sampling":        {none, wantText("Sampling result: sampled text")},
		"test_input_required_result_list_roots":      {none, wantText("Found 0 root(s)")},
		"test_input_required_result_request_state":   {none, wantText("state-ok: requestState validated")},
		"test_input_required_result_multiple_inputs": {none, wantText("Name: ada; Greeting: sampled text; Roots: 0")},
		"test_input_required_result_multi_round":     {none, wantText("Multi-round complete for ada who likes blue")},
		"test_input_required_result_tampered_state":  {none, wantText("integrity-ok: state verified")},
		"test_input_required_result_capabilities":    {none, wantText("capabilities-ok: received elicit_input")},
		"test_missing_capability":                    {none, wantText("The client declared sampling; the tool ran.")},
		"test_streaming_elicitation":                 {none, wantText("Streaming complete")},
		"test_logging_tool":                          {none, wantText("Logging evaluated")},
		"test_trigger_tool_change":                   {none, wantText("announced as changed")},
		"test_trigger_prompt_change":                 {none, wantText("announced as changed")},
		"test_x_mcp_header":                          {map[string]any{"region": "eu"}, wantText("region=eu")},
		"sandbox_probe":                              {map[string]any{"action": "read", "target": "/proc/self/status"}, wantText("read ")},
	}
}

func TestEveryToolIsCalled(t *testing.T) {
	for _, proto := range []string{legacy, latest} {
		t.Run(proto, func(t *testing.T) {
			_, cs := connect(t, proto, answeringClient(map[string]any{"username": "ada", "email": "ada@example.com", "name": "ada"}))
			res, err := cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			cases := toolCases()
			listed := map[string]bool{}
			for _, tool := range res.Tools {
				listed[tool.Name] = true
				tc, ok := cases[tool.Name]
				if !ok {
					t.Errorf("tool %q has no test case", tool.Name)
					continue
				}
				t.Run(tool.Name, func(t *testing.T) { tc.check(t, call(t, cs, tool.Name, tc.args)) })
			}
			for name := range cases {
				if !listed[name] {
					t.Errorf("test case %q names a tool the server does not list", name)
				}
			}
		})
	}
}

// Every tool carries a name, a description, an object input schema and
// explicit annotations: readOnlyHint, destructiveHint and openWorldHint are
// all on the wire (the MCP spec's defaults read a missing hint as destructive).
func TestEveryToolSetsAnnotationsExplicitly(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) < 20 {
		t.Fatalf("only %d tools listed", len(res.Tools))
	}
	for _, tool := range res.Tools {
		raw, err := json.Marshal(tool)
		if err != nil {
			t.Fatal(err)
		}
		var wire struct {
			Description string                     `json:"description"`
			InputSchema map[string]any             `json:"inputSchema"`
			Annotations map[string]json.RawMessage `json:"annotations"`
		}
		if err := json.Unmarshal(raw, &wire); err != nil {
			t.Fatal(err)
		}
		if wire.Description == "" || wire.InputSchema["type"] != "object" {
			t.Errorf("%s: missing description or object input schema", tool.Name)
		}
		for _, hint := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint", "title"} {
			if _, ok := wire.Annotations[hint]; !ok {
				t.Errorf("%s: annotations.%s is not set explicitly (%s)", tool.Name, hint, raw)
			}
		}
		a := tool.Annotations
		if a != nil && a.ReadOnlyHint && a.DestructiveHint != nil && *a.DestructiveHint {
			t.Errorf("%s: read-only and destructive at once", tool.Name)
		}
	}
}

// Every tool's full definition (name, title, description, input and output
// schema, annotations) as a client lists it is a snapshot,
// testdata/demo/tools/<name>.snap: a change of what a tool declares —
// what it accepts, returns or claims to do to the world — is a reviewed
// change. golden.Check compares each (RELAVIUM_UPDATE_GOLDEN=1 rewrites
// them); a snapshot of a tool that is gone fails too. Both protocol
// versions list the same definitions.
func TestToolDefinitionsSnapshot(t *testing.T) {
	list := func(proto string) []*mcp.Tool {
		_, cs := connect(t, proto, nil)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		return res.Tools
	}
	tools := list(legacy)
	if len(tools) < 20 {
		t.Fatalf("only %d tools listed", len(tools))
	}
	dir := filepath.Join("..", "..", "testdata", "demo", "tools")
	safe := regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	var names []string
	defs := map[string][]byte{}
	for _, tool := range tools {
		if !safe.MatchString(tool.Name) {
			t.Fatalf("tool name %q cannot name a snapshot file", tool.Name)
		}
		b, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, '\n')
		names = append(names, tool.Name)
		defs[tool.Name] = b
		golden.Check(t, filepath.Join(dir, tool.Name+".snap"), b)
	}
	golden.CheckDir(t, dir, ".snap", names)
	for _, tool := range list(latest) {
		b, err := json.MarshalIndent(tool, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if want := defs[tool.Name]; string(append(b, '\n')) != string(want) {
			t.Errorf("%s is listed differently on %s:\n%s\nthan on %s:\n%s", tool.Name, latest, b, legacy, want)
		}
	}
}

// The structured content of get_weather and add_numbers validates against
// the output schema the tool declares.
func TestStructuredContentMatchesOutputSchema(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	cases := toolCases()
	n := 0
	for _, tool := range res.Tools {
		if tool.OutputSchema == nil {
			continue
		}
		n++
		b, _ := json.Marshal(tool.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: output schema does not resolve: %v", tool.Name, err)
		}
		out := call(t, cs, tool.Name, cases[tool.Name].args)
		if out.StructuredContent == nil {
			t.Fatalf("%s declares an output schema but returned no structured content", tool.Name)
		}
		if err := rs.Validate(out.StructuredContent); err != nil {
			t.Errorf("%s: structured content does not match its output schema: %v", tool.Name, err)
		}
	}
	if n < 2 {
		t.Fatalf("want at least 2 tools with an output schema, got %d", n)
	}
}

// The three refused tools carry exactly the flaws a careful client refuses:
// a remote $ref, a draft-04 schema, a control character in a property name.
func TestRefusedToolsCarryTheirFlaws(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, tool := range res.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		schemas[tool.Name] = string(b)
	}
	resolve := func(name string) error {
		var s jsonschema.Schema
		if err := json.Unmarshal([]byte(schemas[name]), &s); err != nil {
			return err
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			return err
		}
		return rs.Validate(map[string]any{})
	}
	if err := resolve("remote_ref_schema"); err == nil || !strings.Contains(err.Error(), "remote") {
		t.Errorf("remote_ref_schema: want a remote-$ref failure, got %v", err)
	}
	if err := resolve("draft04_schema"); err == nil {
		t.Errorf("draft04_schema: want a failure for draft-04, got none")
	}
	if !strings.Contains(schemas["control_char_property"], `"path\n"`) {
		t.Errorf("control_char_property: property name lost its newline: %s", schemas["control_char_property"])
	}
	// A sound tool's schema resolves, so the failures above are the flaws'.
	if err := resolve("echo"); err == nil || !strings.Contains(err.Error(), "message") {
		t.Errorf("echo: want a missing-property failure only, got %v", err)
	}
}

// Invalid arguments are refused by the SDK's validation before the handler
// runs, with a message naming the problem.
func TestArgumentsAreValidated(t *testing.T) {
	_, cs := connect(t, legacy, nil)
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"long_operation", map[string]any{"steps": 0}, "steps"},
		{"long_operation", map[string]any{"duration_ms": 600001}, "duration_ms"},
		{"get_weather", map[string]any{}, "city"},
		{"get_weather", map[string]any{"city": "x", "units": "kelvin"}, "units"},
		{"add_numbers", map[string]any{"a": "two", "b": 3}, "a"},
	}
	for _, c := range cases {
		res := call(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(textOf(t, res), c.want) {
			t.Errorf("%s %v: want an isError naming %q, got %#v", c.tool, c.args, c.want, res.Content)
		}
	}
}
