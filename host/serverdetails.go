package host

import "github.com/relavium/relavium/host/browse"

// ServerDetails is what a server said of itself at initialize
// (host/browse).
type ServerDetails = browse.ServerDetails

// ServerDetails is the named server's details; false while it has not
// initialized (or is not in the set).
func (h *Host) ServerDetails(name string) (ServerDetails, bool) {
	h.mu.Lock()
	c := h.findLocked(name)
	h.mu.Unlock()
	if c == nil {
		return ServerDetails{}, false
	}
	cs := c.session()
	if cs == nil {
		return ServerDetails{}, false
	}
	res := cs.InitializeResult()
	if res == nil {
		return ServerDetails{}, false
	}
	return browse.Details(res), true
}
