package browse

import "github.com/relavium/relavium/engine"

// Resource is one resource a server lists. Text fields are the server's,
// unsanitized: whoever shows them sanitizes them.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
	Size        int64  `json:"size,omitempty"`
}

// ResourceTemplate is one RFC 6570 resource template a server lists.
type ResourceTemplate struct {
	URITemplate string `json:"uri_template"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
}

// ResourceList is what a server offers to read. Offered is false when the
// server does not declare the resources capability (the lists are empty).
// NotOffered names the lists it declared but answered -32601
// (resources/list, resources/templates/list): each is empty, not a failure.
type ResourceList struct {
	Offered    bool               `json:"offered"`
	Resources  []Resource         `json:"resources"`
	Templates  []ResourceTemplate `json:"templates"`
	NotOffered []string           `json:"not_offered,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// Prompt is one prompt a server lists.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptMessage is one message of a rendered prompt.
type PromptMessage struct {
	Role    string         `json:"role"`
	Content engine.Content `json:"content"`
}

// PromptResult is a rendered prompt.
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}
