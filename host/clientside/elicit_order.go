package clientside

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sync"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/fields"
)

// The go-sdk hands an elicitation's requestedSchema to the handler decoded
// into a map, so the order in which the server declared its fields is lost
// (a form would show them alphabetically). The connection sees the raw
// request first: FieldOrders keeps the order of each requested schema's
// properties, keyed by the schema's canonical JSON, and host's onElicit writes the
// decoded schema back with its properties in that order. Only the order is
// taken from the raw bytes; every value is the SDK's. A schema that does
// not match (or was evicted) keeps the decoded form.
//
// Only connections relavium reads itself (stdio, in-memory, legacy SSE,
// websocket: observedConn) feed it; over Streamable HTTP, whose connection
// the SDK keeps to itself, the decoded order is used.

const (
	maxFieldOrders    = 16       // requests waiting for their handler
	maxRawSchemaBytes = 64 << 10 // a bigger schema is not kept (elicitation schemas are flat)
)

// FieldOrders is one connection's remembered property orders. Its zero
// value is ready.
type FieldOrders struct {
	mu     sync.Mutex
	keys   []string // one per remembered request, FIFO: the oldest is evicted first
	orders map[string]*pendingOrder
}

// pendingOrder is the property order of a schema and how many remembered
// requests (the same schema may be asked for twice at once) still await it.
type pendingOrder struct {
	names []string
	n     int
}

// Remember records the property order of one elicitation/create's
// requestedSchema.
func (f *FieldOrders) Remember(params json.RawMessage) {
	var p struct {
		RequestedSchema json.RawMessage `json:"requestedSchema"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestedSchema) == 0 || len(p.RequestedSchema) > maxRawSchemaBytes {
		return
	}
	key, ok := schemaKey(p.RequestedSchema)
	if !ok {
		return
	}
	fs, err := fields.Of(p.RequestedSchema) // the form's reading of the schema: its fields in order
	if err != nil {
		return
	}
	var names []string
	seen := map[string]bool{}
	for _, fl := range fs {
		if !seen[fl.Name] { // a repeated name is placed once, first
			seen[fl.Name] = true
			names = append(names, fl.Name)
		}
	}
	if len(names) < 2 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.orders == nil {
		f.orders = map[string]*pendingOrder{}
	}
	po := f.orders[key]
	if po == nil {
		po = &pendingOrder{}
		f.orders[key] = po
	}
	po.names, po.n = names, po.n+1
	f.keys = append(f.keys, key)
	for len(f.keys) > maxFieldOrders {
		f.release(f.keys[0])
		f.keys = f.keys[1:]
	}
}

// release drops one request's claim on key's order (f.mu held).
func (f *FieldOrders) release(key string) {
	if p := f.orders[key]; p != nil {
		if p.n--; p.n <= 0 {
			delete(f.orders, key)
		}
	}
}

// Apply returns schema (the SDK's decoded requestedSchema, marshalled) with
// its properties in the order the server sent them, when that is known.
func (f *FieldOrders) Apply(schema json.RawMessage) json.RawMessage {
	key, ok := schemaKey(schema)
	if !ok {
		return schema
	}
	f.mu.Lock()
	var order []string
	p, found := f.orders[key]
	if found {
		order = p.names
		f.release(key)
		if i := slices.Index(f.keys, key); i >= 0 { // every claim has its key
			f.keys = slices.Delete(f.keys, i, i+1)
		}
	}
	f.mu.Unlock()
	if !found {
		return schema
	}
	var top map[string]json.RawMessage
	var props map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil || json.Unmarshal(top["properties"], &props) != nil {
		return schema
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(top)) {
		if i > 0 {
			b.WriteByte(',')
		}
		writeKey(&b, k)
		if k != "properties" {
			b.Write(top[k])
			continue
		}
		b.WriteByte('{')
		n := 0
		for _, name := range append(order, slices.Sorted(maps.Keys(props))...) {
			v, ok := props[name]
			if !ok {
				continue
			}
			delete(props, name) // written once: the order first, then any it lacked
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			writeKey(&b, name)
			b.Write(v)
		}
		b.WriteByte('}')
	}
	b.WriteByte('}')
	return b.Bytes()
}

func writeKey(b *bytes.Buffer, k string) {
	q, _ := json.Marshal(k)
	b.Write(q)
	b.WriteByte(':')
}

// schemaKey is the canonical JSON of a schema: the same for the raw bytes
// and for the SDK's decoded map marshalled back.
func schemaKey(b json.RawMessage) (string, bool) {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return "", false
	}
	c, err := canonjson.Marshal(v)
	if err != nil {
		return "", false
	}
	return string(c), true
}
