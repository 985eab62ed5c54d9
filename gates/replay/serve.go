package replay

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answer is the recorded answer to one request: a result, or the error the
// server gave, or (no recorded answer) a JSON-RPC error naming E951.
func (s *Script) Answer(method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.answers[Key(method, params)]
	if q == nil && stateless(method) {
		// Requests a client chooses for itself and a server answers
		// without state: a replay answers them whatever was recorded, so
		// any client can connect (the Inspectors ask for their own log
		// level on connect).
		return json.RawMessage("{}"), nil
	}
	if q == nil {
		if !s.methods[method] {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
				Message: fmt.Sprintf("%s: relavium replay has no recorded %s request for server %s: record a session that makes it", CodeUnrecorded, method, s.Server)}
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams,
			Message: fmt.Sprintf("%s: relavium replay has no recorded %s request with these params for server %s (it matches by method and canonical params)", CodeUnrecorded, method, s.Server)}
	}
	a := q.answers[q.next]
	if q.next < len(q.answers)-1 {
		q.next++
	}
	if len(a.err) > 0 {
		var we jsonrpc.Error
		if json.Unmarshal(a.err, &we) == nil {
			return nil, &we
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "recorded error"}
	}
	if len(a.result) == 0 {
		return json.RawMessage("{}"), nil
	}
	return a.result, nil
}

// stateless reports whether method is answered with an empty result when
// the recording holds no twin: ping (liveness) and logging/setLevel at any
// level (the client's choice; a server acknowledges it with {}).
func stateless(method string) bool {
	return method == "ping" || method == "logging/setLevel"
}

// Serve answers conn's requests until it ends or ctx is done.
func Serve(ctx context.Context, conn mcp.Connection, s *Script) error {
	defer conn.Close()
	for {
		msg, err := conn.Read(ctx)
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			continue // a notification or a client's answer: nothing to say
		}
		res, werr := s.Answer(req.Method, req.Params)
		resp := &jsonrpc.Response{ID: req.ID, Result: res}
		if werr != nil {
			resp = &jsonrpc.Response{ID: req.ID, Error: werr}
		}
		if err := conn.Write(ctx, resp); err != nil {
			return err
		}
	}
}

// maxBody bounds a request body on HTTP.
const maxBody = 4 << 20

// Handler serves s over Streamable HTTP: each POSTed request is answered
// with one JSON response; notifications get 202; GET (no standalone
// stream) 405; DELETE ends nothing (200).
func Handler(s *Script) http.Handler {
	var idBytes [16]byte
	_, _ = rand.Read(idBytes[:])
	session := hex.EncodeToString(idBytes[:])
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
		case http.MethodDelete:
			w.WriteHeader(http.StatusOK)
			return
		default:
			w.Header().Set("Allow", "POST, DELETE")
			http.Error(w, "relavium replay offers no standalone stream", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil || len(body) > maxBody {
			http.Error(w, "request body unreadable or over 4 MiB", http.StatusRequestEntityTooLarge)
			return
		}
		msg, err := jsonrpc.DecodeMessage(body)
		if err != nil {
			http.Error(w, "not one JSON-RPC message", http.StatusBadRequest)
			return
		}
		w.Header().Set("Mcp-Session-Id", session)
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		res, werr := s.Answer(req.Method, req.Params)
		resp := &jsonrpc.Response{ID: req.ID, Result: res}
		if werr != nil {
			resp = &jsonrpc.Response{ID: req.ID, Error: werr}
		}
		out, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			http.Error(w, "cannot encode the answer", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
}
