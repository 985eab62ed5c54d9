package session

import "github.com/relavium/relavium/engine"

// URLShower is implemented by an Elicitor that can show the person a
// screened url (the workbench): url-mode elicitation is then declared.
type URLShower interface {
	ShowsURLs() bool
}

// Answering is the session with sampling answered by sm and url-mode
// elicitation declared when the session's Elicitor can show a url.
func (s *Session) Answering(sm engine.Sampler) *Session {
	c := *s
	if sm != nil {
		c.opts.Sampler = sm
	}
	if us, ok := c.opts.Elicitor.(URLShower); ok && us.ShowsURLs() {
		c.opts.URLElicitation = true
	}
	return &c
}
