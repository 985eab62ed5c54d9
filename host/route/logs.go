package route

import (
	"slices"
	"sync"

	"github.com/relavium/relavium/engine"
)

// levels are the MCP log levels (RFC 5424 severities), most verbose first.
var levels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogLevels returns the MCP log levels, most verbose first.
func LogLevels() []string { return slices.Clone(levels) }

// ValidLogLevel reports whether level is one of LogLevels.
func ValidLogLevel(level string) bool { return slices.Contains(levels, level) }

// LogLevelRank orders levels: debug 0 … emergency 7; an unknown level
// (a server's own word) ranks as info, so a filter never hides it as noise
// nor promotes it.
func LogLevelRank(level string) int {
	if i := slices.Index(levels, level); i >= 0 {
		return i
	}
	return 1
}

// Logs are the calls in flight on one server that take logs, and how many
// requests of relavium's are in flight there at all.
type Logs struct {
	mu       sync.Mutex
	inFlight int
	sinks    map[uint64]*logSink
}

// logSink delivers one call's logs to its OnLog in order; push never
// blocks, and a consumer that is behind loses the oldest queued entry past
// MaxQueuedLogs.
type logSink = Queue[engine.LogEntry]

// MaxQueuedLogs bounds what one call's sink holds while its consumer is
// behind; beyond it the oldest queued entry is dropped.
const MaxQueuedLogs = 256

// Begin counts one request in flight; with onLog it is a call taking logs.
// end (returned) uncounts it and waits until its logs were delivered.
func (l *Logs) Begin(seq uint64, onLog func(engine.LogEntry)) (end func()) {
	l.mu.Lock()
	l.inFlight++
	var s *logSink
	if onLog != nil {
		s = &logSink{Deliver: onLog, Max: MaxQueuedLogs}
		if l.sinks == nil {
			l.sinks = map[uint64]*logSink{}
		}
		l.sinks[seq] = s
	}
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		l.inFlight--
		delete(l.sinks, seq)
		l.mu.Unlock()
		if s != nil {
			s.Drain()
		}
	}
}

// InFlight is how many requests are in flight now.
func (l *Logs) InFlight() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.inFlight
}

// Route hands e to the one call it can only belong to, if there is one.
func (l *Logs) Route(e engine.LogEntry) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.inFlight != 1 || len(l.sinks) != 1 {
		return false
	}
	for _, s := range l.sinks {
		s.Push(e)
	}
	return true
}
