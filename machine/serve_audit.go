package machine

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/relavium/relavium/inbound"
	"github.com/relavium/relavium/invoke/cli"
)

// Unauthenticated refusals (401) are audit-logged at most
// unauthAuditPerMinute a minute: the log rotates at AuditRotateBytes and
// keeps AuditKeep files, so a client without the token must not be able to
// push the record of real requests out of it. What is left out is counted
// and said in one line on the server's stderr. Refusals of authenticated
// requests (403, 413, 503) are logged like every other refusal.
const unauthAuditPerMinute = 60

// httpRefusals audits the refusals the HTTP layer answers before any MCP
// request is read: the record has no command (empty) and, nothing being
// known of what was asked, the strongest side effect (failing closed).
type httpRefusals struct {
	iv        *Invoker
	transport Transport
	mu        sync.Mutex
	window    time.Time // start of the current minute
	logged    int       // 401s logged in this window
	dropped   int       // 401s left out in this window
}

func newHTTPRefusals(iv *Invoker, transport Transport) *httpRefusals {
	return &httpRefusals{iv: iv, transport: transport}
}

// refused records one refusal.
func (h *httpRefusals) refused(_ *http.Request, err *cli.Error) {
	if err.ErrCode == inbound.CodeToken && !h.admitUnauth() {
		return
	}
	c := &call{iv: h.iv, transport: h.transport, start: h.iv.now(), req: &Request{}, side: cli.Destructive}
	c.id = RequestID("", nil, c.req)
	c.refuse(err)
}

// admitUnauth applies the per-minute bound to 401 records.
func (h *httpRefusals) admitUnauth() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.iv.now()
	if now.Sub(h.window) >= time.Minute {
		if h.dropped > 0 && h.iv.Stderr != nil {
			fmt.Fprintf(h.iv.Stderr, "relavium mcp serve: %d more unauthenticated requests (401) were refused but not audit-logged (at most %d a minute are)\n", h.dropped, unauthAuditPerMinute)
		}
		h.window, h.logged, h.dropped = now, 0, 0
	}
	if h.logged >= unauthAuditPerMinute {
		h.dropped++
		return false
	}
	h.logged++
	return true
}
