package engine

import (
	"context"
	"encoding/json"
)

// Events of the requests a server makes of the client: sampling (the
// server asks the client's model, here the person, for a message).
const (
	EventSamplingRequest  = "sampling:requested"
	EventSamplingResolved = "sampling:resolved"
)

// SampleMessage is one message of a sampling request's conversation.
type SampleMessage struct {
	Role    string    `json:"role"`
	Content []Content `json:"content"`
}

// SampleTool is a tool a sampling request offers the model (shown, never
// called by relavium).
type SampleTool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// SampleRequest is a server's sampling/createMessage, every text of it
// cleaned for display by the host. ID pairs it with its answer in events.
type SampleRequest struct {
	ID               string          `json:"id"`
	Server           string          `json:"server"`
	Messages         []SampleMessage `json:"messages"`
	SystemPrompt     string          `json:"system_prompt,omitempty"`
	ModelPreferences json.RawMessage `json:"model_preferences,omitempty"`
	MaxTokens        int64           `json:"max_tokens"`
	Temperature      float64         `json:"temperature,omitempty"`
	StopSequences    []string        `json:"stop_sequences,omitempty"`
	IncludeContext   string          `json:"include_context,omitempty"`
	Tools            []SampleTool    `json:"tools,omitempty"`
	ToolChoice       string          `json:"tool_choice,omitempty"`
}

// Sampling answers.
const (
	SampleAccept  = "accept"
	SampleDecline = "decline"
)

// SampleResponse answers a SampleRequest: accept with a message (role,
// text, model, stop reason), or decline.
type SampleResponse struct {
	Action     string `json:"action"`
	Role       string `json:"role,omitempty"`
	Text       string `json:"text,omitempty"`
	Model      string `json:"model,omitempty"`
	StopReason string `json:"stop_reason,omitempty"`
}

// Sampler answers sampling requests: the TUI's dialog, the headless
// --sampling-reply, and later a model provider. It must honour ctx.
type Sampler interface {
	Sample(ctx context.Context, req SampleRequest) (SampleResponse, error)
}

// SamplingResolvedData is the payload of EventSamplingResolved: how a
// request was answered (the reply's text included: the session log and
// export keep what was sent on the person's behalf).
type SamplingResolvedData struct {
	ID     string `json:"id"`
	Server string `json:"server"`
	SampleResponse
	ErrorCode string `json:"error_code,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// ElicitURL is a url-mode elicitation as screened before the person sees
// it: the full origin, whether relavium will open it at all (https, or
// http on loopback), and every warning about how the host name reads.
type ElicitURL struct {
	URL           string   `json:"url"`
	ElicitationID string   `json:"elicitation_id,omitempty"`
	Origin        string   `json:"origin"`
	Openable      bool     `json:"openable"`
	Refusal       string   `json:"refusal,omitempty"`
	Warnings      []string `json:"warnings,omitempty"`
}
