package browse

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Capabilities returns the server's declared capabilities (never nil).
func Capabilities(cs *mcp.ClientSession) *mcp.ServerCapabilities {
	if res := cs.InitializeResult(); res != nil && res.Capabilities != nil {
		return res.Capabilities
	}
	return &mcp.ServerCapabilities{}
}

// MaxPages caps a resources/list, resources/templates/list or
// prompts/list walk (a server repeating cursors cannot hold the caller).
const MaxPages = 100

// Pages walks a paginated listing: page fetches the page at cursor ("" first)
// and returns the next cursor, "" after the last page. A walk longer than
// MaxPages is an error naming method.
func Pages(method string, page func(cursor string) (next string, err error)) error {
	cursor := ""
	for n := 0; ; n++ {
		if n == MaxPages {
			return fmt.Errorf("%s: more than %d pages", method, MaxPages)
		}
		next, err := page(cursor)
		if err != nil {
			return err
		}
		if cursor = next; cursor == "" {
			return nil
		}
	}
}
