package demoserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// demoTools are the friendly demo tools: what a person calls in the TUI.
func demoTools() []newTool {
	return []newTool{
		echoTool, addNumbersTool, getWeatherTool, longOperationTool, emitLogsTool, askUserTool,
		getResourceLinksTool, alwaysFailsTool, createNoteTool, deleteFileTool, touchWatchedResourceTool,
	}
}

func echoTool(*Server) tool {
	type echoIn struct {
		Message string `json:"message" jsonschema:"the text to send back"`
	}
	return typed(&mcp.Tool{Name: "echo", Description: "Sends the message back.",
		Annotations: annotate("Echo", readOnly, true)},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoIn) (*mcp.CallToolResult, any, error) {
			return text(in.Message), nil, nil
		})
}

func addNumbersTool(*Server) tool {
	type addIn struct {
		A float64 `json:"a" jsonschema:"the first addend"`
		B float64 `json:"b" jsonschema:"the second addend"`
	}
	type addOut struct {
		Sum float64 `json:"sum" jsonschema:"a + b"`
	}
	return typed(&mcp.Tool{Name: "add_numbers", Description: "Adds two numbers; the sum is also returned as structured content.",
		Annotations: annotate("Add numbers", readOnly, true)},
		func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			sum := in.A + in.B
			return text(fmt.Sprintf("The sum of %g and %g is %g.", in.A, in.B, sum)), addOut{Sum: sum}, nil
		})
}

// getWeatherTool's output schema is inferred from weatherOut (weather.go).
func getWeatherTool(*Server) tool {
	return typed(&mcp.Tool{Name: "get_weather", Description: "A made-up, deterministic forecast for a city, as structured content with an output schema.",
		Annotations: annotate("Weather (fictional)", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"city": {"type": "string", "minLength": 1, "maxLength": 100, "description": "city name"},
				"days": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3, "description": "days of forecast"},
				"units": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"}
			},
			"required": ["city"],
			"additionalProperties": false
		}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in weatherIn) (*mcp.CallToolResult, weatherOut, error) {
			return nil, forecast(in), nil
		})
}

type longIn struct {
	Steps      int `json:"steps"`
	DurationMS int `json:"duration_ms"`
}

func longOperationTool(s *Server) tool {
	return typed(&mcp.Tool{Name: "long_operation", Description: "Works for duration_ms in `steps` steps, reporting progress after each; cancellable.",
		Annotations: annotate("Long operation", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"steps": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 5, "description": "number of progress steps"},
				"duration_ms": {"type": "integer", "minimum": 0, "maximum": 600000, "default": 3000, "description": "total duration in milliseconds"}
			},
			"additionalProperties": false
		}`)},
		s.longOperation)
}

// longOperation sleeps DurationMS in Steps equal parts, reporting progress
// (when the caller asked for it) and logging each step at debug level. It
// stops at once when the call is cancelled or the server closes.
func (s *Server) longOperation(ctx context.Context, req *mcp.CallToolRequest, in longIn) (*mcp.CallToolResult, any, error) {
	tok := req.Params.GetProgressToken()
	step := time.Duration(in.DurationMS) * time.Millisecond / time.Duration(in.Steps)
	start := time.Now()
	for i := 1; i <= in.Steps; i++ {
		if err := s.sleep(ctx, step); err != nil {
			// Say so on the session (a notification outlives the request),
			// so a client can see that its cancellation arrived.
			if err != errServerClosing {
				_ = req.Session.Log(context.WithoutCancel(ctx), &mcp.LoggingMessageParams{Level: "notice", Logger: Name,
					Data: fmt.Sprintf("long_operation cancelled by the client after %d of %d steps", i-1, in.Steps)})
			}
			return nil, nil, fmt.Errorf("stopped after %d of %d steps: %w", i-1, in.Steps, err)
		}
		if tok != nil {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok,
				Progress: float64(i), Total: float64(in.Steps), Message: fmt.Sprintf("step %d of %d", i, in.Steps)})
		}
		_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "debug", Logger: Name,
			Data: fmt.Sprintf("long_operation: step %d of %d done", i, in.Steps)})
	}
	return text(fmt.Sprintf("Long operation finished: %d steps in %s.", in.Steps, time.Since(start).Round(time.Millisecond))), nil, nil
}

func emitLogsTool(s *Server) tool {
	type logsIn struct {
		Count      int `json:"count"`
		IntervalMS int `json:"interval_ms"`
	}
	return typed(&mcp.Tool{Name: "emit_logs", Description: "Sends `count` log messages, cycling through debug, info, notice, warning and error.",
		Annotations: annotate("Emit logs", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"count": {"type": "integer", "minimum": 1, "maximum": 100, "default": 5, "description": "number of messages"},
				"interval_ms": {"type": "integer", "minimum": 0, "maximum": 5000, "default": 100, "description": "pause between messages"}
			},
			"additionalProperties": false
		}`)},
		func(ctx context.Context, req *mcp.CallToolRequest, in logsIn) (*mcp.CallToolResult, any, error) {
			levels := []mcp.LoggingLevel{"debug", "info", "notice", "warning", "error"}
			for i := 0; i < in.Count; i++ {
				if i > 0 {
					if err := s.sleep(ctx, time.Duration(in.IntervalMS)*time.Millisecond); err != nil {
						return nil, nil, err
					}
				}
				lvl := levels[i%len(levels)]
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: lvl, Logger: Name,
					Data: fmt.Sprintf("message %d of %d at %s", i+1, in.Count, lvl)})
			}
			return text(fmt.Sprintf("Sent %d log messages.", in.Count)), nil, nil
		})
}

func askUserTool(*Server) tool {
	type askIn struct {
		Question string `json:"question,omitempty" jsonschema:"what to ask (optional)"`
	}
	return typed(&mcp.Tool{Name: "ask_user", Description: "Asks the person a few questions through an elicitation form and greets them.",
		Annotations: annotate("Ask the user", readOnly, false)},
		func(_ context.Context, req *mcp.CallToolRequest, in askIn) (*mcp.CallToolResult, any, error) {
			if r, ok := elicited(req, "profile"); ok {
				return greet(r), nil, nil
			}
			if r := missingCapability(req, "elicitation"); r != nil {
				return r, nil, nil
			}
			msg := in.Question
			if msg == "" {
				msg = "Tell the demo server about yourself."
			}
			return ask("profile", &mcp.ElicitParams{Message: msg, RequestedSchema: json.RawMessage(`{
				"type": "object",
				"properties": {
					"name": {"type": "string", "title": "Name", "minLength": 1, "maxLength": 80},
					"email": {"type": "string", "title": "Email", "format": "email"},
					"color": {"type": "string", "title": "Favourite colour", "oneOf": [
						{"const": "red", "title": "Red"}, {"const": "green", "title": "Green"}, {"const": "blue", "title": "Blue"}]},
					"cups": {"type": "integer", "title": "Cups of coffee a day", "minimum": 0, "maximum": 20, "default": 2},
					"subscribe": {"type": "boolean", "title": "Subscribe to the newsletter", "default": false}
				},
				"required": ["name"]
			}`)}), nil, nil
		})
}

// greet renders the answer to ask_user's form.
func greet(r *mcp.ElicitResult) *mcp.CallToolResult {
	if r.Action != "accept" {
		return text(fmt.Sprintf("No answer (%s). That is fine.", r.Action))
	}
	name, _ := r.Content["name"].(string)
	parts := []string{fmt.Sprintf("Hello, %s!", name)}
	if c, ok := r.Content["color"].(string); ok && c != "" {
		parts = append(parts, fmt.Sprintf("Your favourite colour is %s.", c))
	}
	if cups, ok := r.Content["cups"].(float64); ok {
		parts = append(parts, fmt.Sprintf("%g cup(s) of coffee a day.", cups))
	}
	if sub, ok := r.Content["subscribe"].(bool); ok && sub {
		parts = append(parts, "(There is no newsletter.)")
	}
	return text(strings.Join(parts, " "))
}

func getResourceLinksTool(*Server) tool {
	type countIn struct {
		Count int `json:"count"`
	}
	return typed(&mcp.Tool{Name: "get_resource_links", Description: "Returns resource_link blocks pointing at this server's resources.",
		Annotations: annotate("Resource links", readOnly, true),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"count": {"type": "integer", "minimum": 1, "maximum": 5, "default": 3, "description": "how many links"}},
			"additionalProperties": false
		}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in countIn) (*mcp.CallToolResult, any, error) {
			res := text(fmt.Sprintf("%d resource link(s):", in.Count))
			for _, l := range resourceLinks()[:in.Count] {
				res.Content = append(res.Content, l)
			}
			return res, nil, nil
		})
}

func alwaysFailsTool(*Server) tool {
	type failIn struct {
		Reason string `json:"reason,omitempty" jsonschema:"the error text (optional)"`
	}
	return typed(&mcp.Tool{Name: "always_fails", Description: "Returns an isError result, as a tool does when it fails.",
		Annotations: annotate("Always fails", readOnly, true)},
		func(_ context.Context, _ *mcp.CallToolRequest, in failIn) (*mcp.CallToolResult, any, error) {
			reason := in.Reason
			if reason == "" {
				reason = "the demo tool failed on purpose"
			}
			return errorResult(reason), nil, nil
		})
}

func createNoteTool(s *Server) tool {
	type noteIn struct {
		Title string `json:"title"`
		Body  string `json:"body"`
	}
	return typed(&mcp.Tool{Name: "create_note", Description: "Stores a note in the server's memory and links to it as demo://notes/{id}.",
		Annotations: annotate("Create a note", writes, false),
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {
				"title": {"type": "string", "minLength": 1, "maxLength": 200},
				"body": {"type": "string", "maxLength": 65536}
			},
			"required": ["title"],
			"additionalProperties": false
		}`)},
		func(_ context.Context, _ *mcp.CallToolRequest, in noteIn) (*mcp.CallToolResult, any, error) {
			n, err := s.notes.add(in.Title, in.Body)
			if err != nil {
				return errorResult(err.Error()), nil, nil
			}
			uri := noteURI(n.ID)
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: fmt.Sprintf("Saved note %d, %q.", n.ID, n.Title)},
				&mcp.ResourceLink{URI: uri, Name: fmt.Sprintf("note-%d", n.ID), Title: n.Title, MIMEType: "text/markdown"},
			}}, nil, nil
		})
}

func deleteFileTool(*Server) tool {
	type deleteIn struct {
		Path string `json:"path" jsonschema:"the file that would be deleted"`
	}
	return typed(&mcp.Tool{Name: "delete_file", Description: "Pretends to delete a file (destructive-annotated; the demo server never touches the file system).",
		Annotations: annotate("Delete a file", destructive, true)},
		func(_ context.Context, _ *mcp.CallToolRequest, in deleteIn) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprintf("Pretended to delete %q. Nothing was deleted: the demo server never touches the file system.", in.Path)), nil, nil
		})
}

func touchWatchedResourceTool(s *Server) tool {
	return typed(&mcp.Tool{Name: "touch_watched_resource", Description: "Notifies subscribers that test://watched-resource changed.",
		Annotations: annotate("Touch the watched resource", writes, true)},
		func(ctx context.Context, _ *mcp.CallToolRequest, _ noArgs) (*mcp.CallToolResult, any, error) {
			if err := s.mcp.ResourceUpdated(ctx, &mcp.ResourceUpdatedNotificationParams{URI: watchedURI}); err != nil {
				return errorResult("could not notify subscribers: " + err.Error()), nil, nil
			}
			return text("Subscribers of " + watchedURI + " were notified."), nil, nil
		})
}
