package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/relavium/relavium/consent/canonjson"
	"github.com/relavium/relavium/host/wire"
	"github.com/relavium/relavium/regularfile"
)

// maxLine bounds one line of a recording: a whole message plus its record.
const maxLine = wire.MaxMessage + 64<<10

// Recording is a read recording: each server's Records in order.
type Recording struct {
	Path    string
	servers map[string][]wire.Record
}

// Read loads the recording at path.
func Read(path string) (*Recording, error) {
	f, st, err := regularfile.Open(path, regularfile.Options{}) // a FIFO is refused, never waited on
	if err != nil {
		return nil, badRecording(path, err)
	}
	defer f.Close()
	if st.Size() > wire.MaxFileBytes+maxLine {
		return nil, badRecording(path, fmt.Errorf("it is %d bytes, over the %d MiB a recording may hold", st.Size(), wire.MaxFileBytes>>20))
	}
	return decode(path, io.LimitReader(f, wire.MaxFileBytes+maxLine))
}

func decode(path string, r io.Reader) (*Recording, error) {
	rec := &Recording{Path: path, servers: map[string][]wire.Record{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r wire.Record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, badRecording(path, fmt.Errorf("line %d is not a record: %v", n, err))
		}
		if r.Server == "" {
			continue // the dropped-records summary
		}
		rec.servers[r.Server] = append(rec.servers[r.Server], r)
	}
	if err := sc.Err(); err != nil {
		return nil, badRecording(path, fmt.Errorf("after line %d: %v", n, err))
	}
	return rec, nil
}

func badRecording(path string, cause error) error {
	return &wire.Error{Base: wire.RecordingError(path, cause)}
}

// Servers are the recorded servers, sorted.
func (r *Recording) Servers() []string {
	out := make([]string, 0, len(r.servers))
	for s := range r.servers {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// Pick returns the server to replay: name, or the only one recorded.
func (r *Recording) Pick(name string) (string, error) {
	all := r.Servers()
	switch {
	case name != "" && r.servers[name] != nil:
		return name, nil
	case name != "":
		return "", newErr(CodeNoServer, fmt.Sprintf("%s holds no server %q (it holds: %s)", r.Path, name, strings.Join(all, ", ")))
	case len(all) == 1:
		return all[0], nil
	case len(all) == 0:
		return "", newErr(CodeNoServer, r.Path+" holds no server's traffic")
	}
	return "", newErr(CodeNoServer, fmt.Sprintf("%s holds several servers (%s); choose one with --server", r.Path, strings.Join(all, ", ")))
}

// Script is one server's recorded answers.
type Script struct {
	Server  string
	mu      sync.Mutex // answers' queues advance under it
	answers map[string]*queue
	methods map[string]bool
}

type queue struct {
	answers []answer
	next    int
}

type answer struct {
	result json.RawMessage
	err    json.RawMessage
}

// Script builds server's answers from the recording.
func (r *Recording) Script(server string) (*Script, error) {
	s := &Script{Server: server, answers: map[string]*queue{}, methods: map[string]bool{}}
	asked := map[string]string{} // request id → key
	for _, rec := range r.servers[server] {
		switch {
		case rec.Dir == wire.Send && rec.Kind == wire.KindRequest && rec.Message != nil:
			var m struct {
				Method string          `json:"method"`
				Params json.RawMessage `json:"params"`
			}
			if json.Unmarshal(rec.Message, &m) == nil {
				asked[string(rec.ID)] = Key(m.Method, m.Params)
				s.methods[m.Method] = true
			}
		case rec.Dir == wire.Recv && (rec.Kind == wire.KindResponse || rec.Kind == wire.KindError) && rec.Message != nil:
			key, ok := asked[string(rec.ID)]
			if !ok {
				continue
			}
			delete(asked, string(rec.ID))
			var m struct {
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(rec.Message, &m) != nil {
				continue
			}
			q := s.answers[key]
			if q == nil {
				q = &queue{}
				s.answers[key] = q
			}
			q.answers = append(q.answers, answer{result: m.Result, err: m.Error})
		}
	}
	if s.answers[Key("initialize", nil)] == nil {
		return nil, newErr(CodeNoHandshake, fmt.Sprintf("%s holds no initialize answer for server %s", r.Path, server))
	}
	return s, nil
}

// Key is how a request is matched: its method and canonical params without
// _meta (initialize: its method alone).
func Key(method string, params json.RawMessage) string {
	if method == "initialize" {
		return method
	}
	return method + "\x00" + canonicalParams(params)
}

func canonicalParams(params json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(params))
	dec.UseNumber()
	var v any
	if len(bytes.TrimSpace(params)) == 0 || dec.Decode(&v) != nil || v == nil {
		return "{}"
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "_meta")
	}
	b, err := canonjson.Marshal(v)
	if err != nil {
		return string(params)
	}
	return string(b)
}
