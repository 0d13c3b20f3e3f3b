// Package discordtest is a fake Discord for tests: a local websocket gateway
// speaking Discord's gateway protocol (HELLO, IDENTIFY, READY, heartbeats,
// dispatches pushed by the test) and an httptest REST API covering what
// factbot calls (gateway discovery, channels, channel messages, interaction
// callbacks, webhook follow-ups and edits, application command
// overwrites, messages added with AddMessage and their attachments' files
// added with AddFile, reactions). Channels added with AddChannel are served by GET
// /channels/{id} and sent, with their guild, in the GUILD_CREATE that
// follows READY. Buttons Discord would refuse (a link button without an
// http(s) url, or with a custom_id; another button without a custom_id)
// are refused with 400 as Discord does. Every REST
// request is recorded for assertions, and the server can be told to answer
// the next requests with Discord's 429 rate-limit response.
//
// Point a real discordgo session at it by rewriting its REST base URL to
// [Server.APIURL] (see bot/discord's Config.APIURL); the gateway address is
// discovered through GET /gateway as with the real service.
package discordtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// APIPrefix is the path under which the fake serves the REST API, matching
// discordgo's EndpointAPI ("https://discord.com/api/v9/").
const APIPrefix = "/api/v" + "9"

// Request is one recorded REST request.
type Request struct {
	Method string
	// Path is the URL path without APIPrefix, e.g. "/channels/1/messages".
	Path   string
	Query  string
	Header http.Header
	Body   []byte
	// Status is what the fake answered.
	Status int
	// At is when the request arrived.
	At time.Time
}

// JSON decodes the request body into v.
func (r Request) JSON(v any) error { return json.Unmarshal(r.Body, v) }

// Map returns the body decoded as a JSON object (nil if it is not one).
func (r Request) Map() map[string]any {
	var m map[string]any
	if json.Unmarshal(r.Body, &m) != nil {
		return nil
	}
	return m
}

// Server is the fake Discord. Create it with New.
type Server struct {
	// Token is the bot token expected in the Authorization header
	// ("Bot " + Token) of bot-authenticated routes. Empty accepts any.
	Token string
	// AppID is the application id; BotUser is the bot's own user.
	AppID   string
	BotUser discordgo.User
	// SessionID is sent in READY.
	SessionID string
	// HeartbeatInterval is sent in HELLO (default 41.25 s, Discord's usual).
	HeartbeatInterval time.Duration

	srv *httptest.Server

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced on every recorded change
	reqs       []Request
	conns      []*gwConn
	identifies []json.RawMessage
	heartbeats int
	seq        int64
	nextID     int64
	messages   map[string]*discordgo.Message // by message id
	originals  map[string]string             // interaction token -> message id
	channels   map[string]*discordgo.Channel // by channel id (AddChannel)
	guildOrder []string                      // guilds of channels, in the order added
	everyone   map[string]int64              // guild id -> @everyone permissions
	limits     []*rateLimit
	files      map[string][]byte // attachments' files by path (AddFile)
}

type rateLimit struct {
	n          int
	retryAfter time.Duration
	global     bool
	match      func(method, path string) bool
}

// New starts a fake Discord; tb's cleanup closes it.
func New(tb testing.TB) *Server {
	s := &Server{
		Token:             "test-token",
		AppID:             "100000000000000001",
		BotUser:           discordgo.User{ID: "100000000000000001", Username: "factbot", Bot: true},
		SessionID:         "fake-session",
		HeartbeatInterval: 41250 * time.Millisecond,
		changed:           make(chan struct{}),
		nextID:            1200000000000000000,
		messages:          map[string]*discordgo.Message{},
		originals:         map[string]string{},
		channels:          map[string]*discordgo.Channel{},
		everyone:          map[string]int64{},
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	tb.Cleanup(s.Close)
	return s
}

// Close shuts the servers down and drops gateway connections.
func (s *Server) Close() {
	s.mu.Lock()
	conns := s.conns
	s.conns = nil
	s.mu.Unlock()
	for _, c := range conns {
		c.ws.Close()
	}
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// APIURL is the REST base URL, the equivalent of "https://discord.com/api/v9/".
func (s *Server) APIURL() string { return s.srv.URL + APIPrefix + "/" }

// GatewayURL is the websocket address GET /gateway returns.
func (s *Server) GatewayURL() string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/gateway"
}

// Client is the HTTP client of the underlying httptest server.
func (s *Server) Client() *http.Client { return s.srv.Client() }

// notifyLocked wakes waiters. s.mu must be held.
func (s *Server) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// wait calls cond under the lock until it reports true or ctx ends.
func (s *Server) wait(ctx context.Context, cond func() bool) error {
	for {
		s.mu.Lock()
		ok := cond()
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// ---- gateway ----

// RateLimit makes the next n requests for which match reports true (any
// request when match is nil) answer 429 the way Discord does: a JSON body
// {"message", "retry_after" (seconds, float), "global"} and the headers
// Retry-After (whole seconds, rounded up), X-RateLimit-Limit,
// X-RateLimit-Remaining: 0, X-RateLimit-Reset, X-RateLimit-Reset-After,
// X-RateLimit-Bucket, X-RateLimit-Scope (and X-RateLimit-Global when global).
func (s *Server) RateLimit(n int, retryAfter time.Duration, global bool, match func(method, path string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits = append(s.limits, &rateLimit{n: n, retryAfter: retryAfter, global: global, match: match})
}

// Requests returns every recorded REST request, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Matching returns the recorded requests with the method (any if empty)
// whose path starts with prefix.
func (s *Server) Matching(method, prefix string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if (method == "" || r.Method == method) && strings.HasPrefix(r.Path, prefix) {
			out = append(out, r)
		}
	}
	return out
}

// WaitRequests blocks until at least n recorded requests satisfy match and
// returns them.
func (s *Server) WaitRequests(ctx context.Context, n int, match func(Request) bool) ([]Request, error) {
	var got []Request
	seen := 0 // requests are only appended: scan each once
	err := s.wait(ctx, func() bool {
		for _, r := range s.reqs[seen:] {
			if match(r) {
				got = append(got, r)
			}
		}
		seen = len(s.reqs)
		return len(got) >= n
	})
	if err != nil {
		return got, fmt.Errorf("discordtest: waiting for %d requests, saw %d: %w", n, len(got), err)
	}
	return got, nil
}

// Message returns the current state of a message the bot created (including
// interaction responses), or nil.
func (s *Server) Message(id string) *discordgo.Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return nil
	}
	c := *m
	return &c
}

// Original returns the current state of the original response of the
// interaction with this token, or nil if there is none yet.
func (s *Server) Original(token string) *discordgo.Message {
	s.mu.Lock()
	id, ok := s.originals[token]
	s.mu.Unlock()
	if !ok {
		return nil
	}
	return s.Message(id)
}
