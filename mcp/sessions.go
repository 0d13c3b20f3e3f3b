package mcp

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader names a request's session in the Streamable HTTP transport.
const sessionHeader = "Mcp-Session-Id"

// sessions bounds the open sessions of an HTTP handler: a request that
// opens one (a POST of initialize without Mcp-Session-Id) takes a slot of every
// client's and one of its token's before the SDK opens it, or is refused;
// the slots are given back when the session closes (idle, deleted by its
// client, or not initialized).
type sessions struct {
	srv           *sdk.Server
	h             http.Handler
	max, perToken int

	mu      sync.Mutex
	open    int
	byToken map[int]int // open sessions by the index of their token
}

func newSessions(srv *sdk.Server, h http.Handler, max, perToken int) *sessions {
	if max <= 0 {
		max = DefaultMaxSessions
	}
	if perToken <= 0 {
		perToken = DefaultMaxSessionsPerToken
	}
	return &sessions{srv: srv, h: h, max: max, perToken: perToken, byToken: map[int]int{}}
}

// serve passes r to the SDK; when r opens a session, within the caps.
func (s *sessions) serve(w http.ResponseWriter, r *http.Request, token int) {
	if r.Method != http.MethodPost || r.Header.Get(sessionHeader) != "" {
		s.h.ServeHTTP(w, r)
		return
	}
	opens, err := opensSession(w, r)
	if err != nil {
		status := http.StatusBadRequest
		if errors.As(err, new(*http.MaxBytesError)) {
			status = http.StatusRequestEntityTooLarge
		}
		refuse(w, status, "cannot read the request: "+err.Error())
		return
	}
	if !opens {
		s.h.ServeHTTP(w, r)
		return
	}
	if status, msg := s.take(token); status != 0 {
		refuse(w, status, msg)
		return
	}
	s.h.ServeHTTP(w, r)
	var opened *sdk.ServerSession
	if id := w.Header().Get(sessionHeader); id != "" {
		for ss := range s.srv.Sessions() {
			if ss.ID() == id {
				opened = ss
				break
			}
		}
	}
	if opened == nil { // refused by the SDK, or already closed
		s.give(token)
		return
	}
	go func() {
		opened.Wait()
		s.give(token)
	}()
}

// maxBody bounds a request's body, as the SDK does by default.
const maxBody = sdk.DefaultMaxRequestBodyBytes

// opensSession reads r's body (putting it back for the SDK) and reports
// whether it may open a session that outlives it: anything but a single
// JSON-RPC message other than initialize. (The SDK opens a session for
// every POST without a session, and closes it at the end of the request
// unless it was initialized.)
func opensSession(w http.ResponseWriter, r *http.Request) (bool, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false, err
	}
	msg, err := jsonrpc.DecodeMessage(body)
	req, ok := msg.(*jsonrpc.Request)
	return err != nil || !ok || req.Method == "initialize", nil
}

// take reserves a session's slots for token, or says why not (its token's
// cap first): the HTTP status and the message of the refusal.
func (s *sessions) take(token int) (int, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.byToken[token] >= s.perToken:
		return http.StatusTooManyRequests, fmt.Sprintf("too many sessions: this token holds at most %d open MCP sessions (FACTBOT_MCP_MAX_SESSIONS_PER_TOKEN); close one (DELETE %s) or reuse it", s.perToken, Path)
	case s.open >= s.max:
		return http.StatusServiceUnavailable, fmt.Sprintf("too many sessions: this server holds at most %d open MCP sessions (FACTBOT_MCP_MAX_SESSIONS); close one (DELETE %s) or try again when an idle one has expired", s.max, Path)
	}
	s.open++
	s.byToken[token]++
	return 0, ""
}

// give gives back a session's slots.
func (s *sessions) give(token int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.open--
	if s.byToken[token]--; s.byToken[token] <= 0 {
		delete(s.byToken, token)
	}
}
