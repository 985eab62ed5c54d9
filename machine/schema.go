package machine

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/relavium/relavium/invoke/cli"
)

// schemaDialect is the JSON Schema draft every params schema declares.
const schemaDialect = "https://json-schema.org/draft/2020-12/schema"

// durationPattern matches what time.ParseDuration accepts (unsigned forms).
const durationPattern = `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`

// confirmPattern matches a plan id or a server-issued nonce.
const confirmPattern = `^[0-9a-f]{64}$`

// ParamsSchema is the params schema of one command, derived from the
// registry: prefixItems per declared argument, one typed property per
// exposed flag with the registry's default, argv only for a free-form leaf,
// confirm only with a confirm block; additionalProperties false throughout.
func ParamsSchema(t *cli.Table, cmd *cli.Command) *jsonschema.Schema {
	props := map[string]*jsonschema.Schema{}
	if len(cmd.Args) > 0 {
		props["args"] = argsSchema(cmd)
	}
	if fl := ExposedFlags(cmd); len(fl) > 0 {
		fp := map[string]*jsonschema.Schema{}
		for _, f := range fl {
			fp[f.Name] = flagSchema(f)
		}
		props["flags"] = &jsonschema.Schema{Type: "object", Description: "flags by name (see each one)",
			Properties: fp, AdditionalProperties: falseSchema()}
	}
	if takesArgv(t, cmd) {
		props["argv"] = &jsonschema.Schema{Type: "array", Description: "free-form words passed to the command after --",
			Items: &jsonschema.Schema{Type: "string"}}
	}
	if cmd.Confirm != nil {
		props["confirm"] = &jsonschema.Schema{Type: "string", Pattern: confirmPattern,
			Description: "the confirm value of a confirmation this server returned for the identical request (a plan id or a one-time nonce)"}
	}
	return &jsonschema.Schema{Schema: schemaDialect, Type: "object", Properties: props, AdditionalProperties: falseSchema()}
}

func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

func argsSchema(cmd *cli.Command) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "array", Description: "positional values, in declaration order"}
	required, variadic := 0, false
	for _, a := range cmd.Args {
		if a.Required {
			required++
		}
		item := &jsonschema.Schema{Type: "string", Title: a.Name, Description: a.Usage, WriteOnly: a.Secret}
		if a.Variadic {
			variadic = true
			s.Items = item
			continue
		}
		s.PrefixItems = append(s.PrefixItems, item)
	}
	if !variadic {
		s.Items = falseSchema()
		n := len(cmd.Args)
		s.MaxItems = &n
	}
	if required > 0 {
		s.MinItems = &required
	}
	return s
}

func flagSchema(f cli.Flag) *jsonschema.Schema {
	s := &jsonschema.Schema{Description: f.Usage, WriteOnly: f.Secret}
	switch f.Type {
	case cli.Bool:
		s.Type = "boolean"
		s.Default = json.RawMessage(strconv.FormatBool(f.Default == "true"))
	case cli.Int:
		s.Type = "integer"
		if f.Default != "" {
			s.Default = json.RawMessage(f.Default)
		}
	case cli.String:
		s.Type = "string"
		for _, e := range f.Enum {
			s.Enum = append(s.Enum, e)
		}
		if f.Default != "" {
			s.Default = mustJSON(f.Default)
		}
	case cli.Duration:
		s.Type = "string"
		s.Pattern = durationPattern
		if f.Default != "" {
			s.Default = mustJSON(f.Default)
		}
	case cli.StringSlice, cli.StringArray:
		s.Type = "array"
		item := &jsonschema.Schema{Type: "string"}
		if f.Type == cli.StringSlice {
			item.Pattern = `^[^,"\r\n]*$`
		}
		s.Items = item
		if f.Default != "" {
			s.Default = mustJSON(strings.Split(f.Default, ","))
		}
	}
	return s
}

func mustJSON(v any) json.RawMessage {
	b, err := marshalNoEscape(v)
	if err != nil {
		return nil
	}
	return b
}
