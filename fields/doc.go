// Package fields is the one reading of a tool's input schema as a person
// fills it: its top-level fields, and the one rule that turns the text a
// person typed for a field into a JSON value.
//
// Contract:
//
//   - Of reads an object schema's top-level properties, in the order the
//     schema declares them, as Fields: name, title, description, the type
//     set (a "type" string or array, or an anyOf/oneOf of plain types, so
//     ["string","null"] and anyOf [{type:string},{type:null}] read alike),
//     required, enum (or oneOf/anyOf of consts), default, format, and the
//     nested kinds (an array's items, an object's own properties). A
//     property that is a local "$ref" (a JSON pointer into the same schema:
//     "#/$defs/x", "#/definitions/x") is followed, as discovery's compiled
//     validator follows it; nothing is ever fetched, a remote or unresolved
//     reference leaves the field untyped (any JSON value), and a chain is
//     followed at most MaxRefHops times. Nesting is read at most MaxNest
//     levels deep. Discovery calls Of once when it admits a tool and keeps
//     the result on engine.ToolDef.Fields; a workflow's inputs are Fields
//     too.
//   - (Field).Value is the one typing rule. Every surface that turns typed
//     text into an argument uses it: `mcp call KEY=VALUE`, `run --input`,
//     the TUI's call form and an elicitation form. Given the field and the
//     text, it returns the value as JSON text (json.RawMessage), numbers
//     exactly as written (an integer past 2^53 is never rounded here; the
//     validator or the workflow plan refuses what it cannot hold):
//     1. the literal null (spaces around it ignored) is null when the type
//     set has "null";
//     2. with an enum, a string member equal to the text is taken, then a
//     member whose JSON equals the text's (so enum [1,2] takes "1" as
//     the number 1); text matching no member is typed by step 3 and the
//     validator names the enum;
//     3. otherwise the declared types are tried in this order, the first
//     that reads the text wins: boolean (true/false, any case), integer
//     (decimal digits, an optional sign), number (a finite decimal
//     number), array and object (JSON text, its nesting refused past
//     nesting.JSONDepth before it is decoded); then string: the text
//     exactly as written. So ["string","null"] takes 3 as "3" and null
//     as null; ["integer","string"] takes 3 as 3 and x as "x".
//     4. a field with no declared type takes any JSON text as that value
//     and anything else as a string;
//     5. text that fits none of the declared types is an error naming them
//     (*TypeError), and JSON nested too deeply is a *DepthError.
//
// Allowed imports: the standard library and nesting only (engine, which
// must stay platform-pure, keeps Fields on its ToolDef).
package fields
