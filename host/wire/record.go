package wire

import (
	"bytes"
	"encoding/json"
	"time"
)

// Directions.
const (
	Send = "send" // client → server
	Recv = "recv" // server → client
)

// Kinds of message.
const (
	KindRequest      = "request"
	KindNotification = "notification"
	KindResponse     = "response"
	KindError        = "error"
	KindInvalid      = "invalid" // not one JSON-RPC message (kept by size only)
)

// MaxMessage is the largest message kept whole (the network guard's bound).
const MaxMessage = 4 << 20

// Record is one JSON-RPC message on one server's wire.
type Record struct {
	Seq    int64     `json:"seq"`
	Time   time.Time `json:"time"`
	Server string    `json:"server"`
	Dir    string    `json:"dir"`
	Kind   string    `json:"kind"`
	// Method is a request's or notification's method, and for a response
	// the method of the request it answers.
	Method string          `json:"method,omitempty"`
	ID     json.RawMessage `json:"id,omitempty"`
	Size   int             `json:"size"`
	// RTTMicros is, on a response, the time since its request was seen.
	RTTMicros int64 `json:"rtt_us,omitempty"`
	// Message is the message, redacted; absent when Truncated.
	Message   json.RawMessage `json:"message,omitempty"`
	Truncated bool            `json:"truncated,omitempty"`
}

// envelope is what pairing reads of a message.
type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// classify fills r's kind, method and id from raw.
func classify(r *Record, raw []byte) bool {
	var e envelope
	if json.Unmarshal(raw, &e) != nil {
		r.Kind = KindInvalid
		return false
	}
	hasID := len(e.ID) > 0 && !bytes.Equal(e.ID, []byte("null"))
	switch {
	case e.Method != "" && hasID:
		r.Kind = KindRequest
	case e.Method != "":
		r.Kind = KindNotification
	case len(e.Error) > 0 && hasID:
		r.Kind = KindError
	case hasID:
		r.Kind = KindResponse
	default:
		r.Kind = KindInvalid
		return false
	}
	r.Method = e.Method
	if hasID {
		r.ID = compactID(e.ID)
	}
	return true
}

func compactID(id json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, id) != nil {
		return nil
	}
	return b.Bytes()
}
