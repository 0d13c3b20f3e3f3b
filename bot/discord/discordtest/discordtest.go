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
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
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

type gwConn struct {
	ws       *websocket.Conn
	wmu      sync.Mutex
	ready    bool
	closedCh chan struct{}
}

func (c *gwConn) write(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.ws.WriteJSON(v)
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

type payload struct {
	Op int             `json:"op"`
	D  json.RawMessage `json:"d"`
	S  *int64          `json:"s,omitempty"`
	T  string          `json:"t,omitempty"`
}

func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	c := &gwConn{ws: ws, closedCh: make(chan struct{})}
	s.mu.Lock()
	s.conns = append(s.conns, c)
	s.notifyLocked()
	s.mu.Unlock()
	defer func() {
		ws.Close()
		s.mu.Lock()
		for i, x := range s.conns {
			if x == c {
				s.conns = append(s.conns[:i], s.conns[i+1:]...)
				break
			}
		}
		s.notifyLocked()
		s.mu.Unlock()
		close(c.closedCh)
	}()

	hello, _ := json.Marshal(map[string]any{"heartbeat_interval": s.HeartbeatInterval.Milliseconds()})
	if c.write(payload{Op: 10, D: hello}) != nil {
		return
	}
	for {
		var p payload
		if err := ws.ReadJSON(&p); err != nil {
			return
		}
		switch p.Op {
		case 1: // heartbeat
			s.mu.Lock()
			s.heartbeats++
			s.notifyLocked()
			s.mu.Unlock()
			if c.write(payload{Op: 11}) != nil {
				return
			}
		case 2: // identify
			ready := map[string]any{
				"v":                  10,
				"user":               s.BotUser,
				"session_id":         s.SessionID,
				"resume_gateway_url": s.GatewayURL(),
				"guilds":             []any{},
				"private_channels":   []any{},
				"application":        map[string]any{"id": s.AppID, "flags": 0},
			}
			s.mu.Lock()
			s.identifies = append(s.identifies, append(json.RawMessage(nil), p.D...))
			s.mu.Unlock()
			if s.welcome(c, ready) != nil {
				return
			}
		case 6: // resume
			if s.dispatchTo(c, "RESUMED", map[string]any{}, true) != nil {
				return
			}
		}
	}
}

// dispatchTo sends a dispatch to c. With ready set, c is marked identified
// before any other write can follow the event.
func (s *Server) dispatchTo(c *gwConn, t string, d any, ready bool) error {
	raw, err := json.Marshal(d)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	s.mu.Lock()
	s.seq++
	seq := s.seq
	if ready {
		// Marked before the write: Dispatch then waits on wmu, so nothing
		// can precede READY, and a client that has read READY can be sent
		// events at once.
		c.ready = true
		s.notifyLocked()
	}
	s.mu.Unlock()
	return c.ws.WriteJSON(payload{Op: 0, D: raw, S: &seq, T: t})
}

// welcome sends READY, then a GUILD_CREATE for each guild with channels,
// before anything else can be dispatched to c.
func (s *Server) welcome(c *gwConn, ready any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	events := []struct {
		t string
		d any
	}{{"READY", ready}}
	for _, g := range s.guilds() {
		events = append(events, struct {
			t string
			d any
		}{"GUILD_CREATE", g})
	}
	for n, ev := range events {
		raw, err := json.Marshal(ev.d)
		if err != nil {
			return err
		}
		s.mu.Lock()
		s.seq++
		seq := s.seq
		if n == 0 {
			// Marked before READY, as in dispatchTo: Dispatch waits on
			// wmu, held until the last GUILD_CREATE is written, so
			// nothing can come between these events.
			c.ready = true
			s.notifyLocked()
		}
		s.mu.Unlock()
		if err := c.ws.WriteJSON(payload{Op: 0, D: raw, S: &seq, T: ev.t}); err != nil {
			return err
		}
	}
	return nil
}

// DefaultEveryone is the @everyone role's permissions in the fake's
// guilds unless SetEveryone says otherwise: view channels, send messages,
// read their history, use application commands.
const DefaultEveryone = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionReadMessageHistory | discordgo.PermissionUseApplicationCommands

// AddChannel makes c known (replacing a channel with its id): GET
// /channels/{id} answers it, and when c.GuildID is set, clients that
// identify afterwards receive it in that guild's GUILD_CREATE (a thread
// among the guild's threads), so that it is in discordgo's state cache.
// A channel added after a client identified reaches it only over REST.
func (s *Server) AddChannel(c *discordgo.Channel) {
	cp := *c
	s.mu.Lock()
	defer s.mu.Unlock()
	if cp.GuildID != "" && !slices.Contains(s.guildOrder, cp.GuildID) {
		s.guildOrder = append(s.guildOrder, cp.GuildID)
	}
	s.channels[cp.ID] = &cp
}

// SetEveryone sets the permissions of guildID's @everyone role sent in its
// GUILD_CREATE (DefaultEveryone if not set).
func (s *Server) SetEveryone(guildID string, perms int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.everyone[guildID] = perms
}

// guilds returns the GUILD_CREATE payloads of the guilds with channels.
func (s *Server) guilds() []*discordgo.Guild {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*discordgo.Guild
	for _, id := range s.guildOrder {
		perms, ok := s.everyone[id]
		if !ok {
			perms = DefaultEveryone
		}
		g := &discordgo.Guild{ID: id, Name: "guild " + id, OwnerID: "1",
			Roles: []*discordgo.Role{{ID: id, Name: "@everyone", Permissions: perms}}}
		for _, c := range s.channels {
			if c.GuildID != id {
				continue
			}
			cp := *c
			if c.IsThread() {
				g.Threads = append(g.Threads, &cp)
			} else {
				g.Channels = append(g.Channels, &cp)
			}
		}
		out = append(out, g)
	}
	return out
}

// WaitReady blocks until a gateway connection has identified and received
// READY.
func (s *Server) WaitReady(ctx context.Context) error {
	return s.wait(ctx, func() bool {
		for _, c := range s.conns {
			if c.ready {
				return true
			}
		}
		return false
	})
}

// WaitConnections blocks until exactly n gateway connections are open, for
// example 0 once a client has closed its session, so that later dispatches
// reach only the clients connected after it.
func (s *Server) WaitConnections(ctx context.Context, n int) error {
	return s.wait(ctx, func() bool { return len(s.conns) == n })
}

// Identify returns the d payload of the most recent IDENTIFY (op 2).
func (s *Server) Identify() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.identifies) == 0 {
		return nil
	}
	return s.identifies[len(s.identifies)-1]
}

// Heartbeats counts the heartbeats (op 1) received so far.
func (s *Server) Heartbeats() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.heartbeats
}

// Dispatch sends a dispatch event (op 0) named t with data d to every
// identified gateway connection. It fails if none is connected.
func (s *Server) Dispatch(t string, d any) error {
	s.mu.Lock()
	var ready []*gwConn
	for _, c := range s.conns {
		if c.ready {
			ready = append(ready, c)
		}
	}
	s.mu.Unlock()
	if len(ready) == 0 {
		return fmt.Errorf("discordtest: no identified gateway connection for %s", t)
	}
	for _, c := range ready {
		if err := s.dispatchTo(c, t, d, false); err != nil {
			return fmt.Errorf("discordtest: dispatch %s: %w", t, err)
		}
	}
	return nil
}

// MessageCreate pushes a MESSAGE_CREATE dispatch.
func (s *Server) MessageCreate(m *discordgo.Message) error { return s.Dispatch("MESSAGE_CREATE", m) }

// InteractionCreate pushes an INTERACTION_CREATE dispatch.
func (s *Server) InteractionCreate(i *discordgo.Interaction) error {
	return s.Dispatch("INTERACTION_CREATE", i)
}

// DropConnections closes every gateway connection (the client reconnects).
func (s *Server) DropConnections() {
	s.mu.Lock()
	conns := append([]*gwConn(nil), s.conns...)
	s.mu.Unlock()
	for _, c := range conns {
		c.ws.Close()
	}
}

// ---- REST ----

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

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/gateway") && websocket.IsWebSocketUpgrade(r) {
		s.serveGateway(w, r)
		return
	}
	if s.serveFile(w, r) {
		return
	}
	at := time.Now()
	body, _ := io.ReadAll(r.Body)
	path := strings.TrimPrefix(r.URL.Path, APIPrefix)
	rec := Request{Method: r.Method, Path: path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body, At: at}

	status, resp, hdr := s.route(r, path, body)
	for k, v := range hdr {
		w.Header()[k] = v
	}
	rec.Status = status
	s.mu.Lock()
	s.reqs = append(s.reqs, rec)
	s.notifyLocked()
	s.mu.Unlock()

	if resp == nil {
		w.WriteHeader(status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(resp)
}

func apiError(code int, msg string) map[string]any {
	return map[string]any{"message": msg, "code": code}
}

// route answers one request: status, JSON body (nil for none), headers.
func (s *Server) route(r *http.Request, path string, body []byte) (int, any, http.Header) {
	if rl := s.takeRateLimit(r.Method, path); rl != nil {
		return rateLimited(rl)
	}
	seg := strings.Split(strings.Trim(path, "/"), "/")
	is := func(parts ...string) bool {
		if len(parts) != len(seg) {
			return false
		}
		for i, p := range parts {
			if p != "*" && p != seg[i] {
				return false
			}
		}
		return true
	}
	// Interaction callbacks and webhook tokens authenticate by their token;
	// everything else needs the bot token.
	tokenRoute := seg[0] == "interactions" || seg[0] == "webhooks"
	if !tokenRoute && s.Token != "" && r.Header.Get("Authorization") != "Bot "+s.Token {
		return http.StatusUnauthorized, apiError(0, "401: Unauthorized"), nil
	}
	if len(body) > 0 && !json.Valid(body) {
		return http.StatusBadRequest, apiError(50109, "The request body contains invalid JSON."), nil
	}
	if err := checkButtons(body); err != nil {
		return http.StatusBadRequest, apiError(50035, "Invalid Form Body: "+err.Error()), nil
	}

	switch {
	case r.Method == "GET" && (is("gateway") || is("gateway", "bot")):
		return http.StatusOK, map[string]any{
			"url":    s.GatewayURL(),
			"shards": 1,
			"session_start_limit": map[string]any{
				"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1,
			},
		}, nil

	case r.Method == "GET" && is("channels", "*"):
		s.mu.Lock()
		c, ok := s.channels[seg[1]]
		var cp discordgo.Channel
		if ok {
			cp = *c
		}
		s.mu.Unlock()
		if !ok {
			return http.StatusNotFound, apiError(10003, "Unknown Channel"), nil
		}
		return http.StatusOK, &cp, nil

	case r.Method == "GET" && is("channels", "*", "messages", "*"):
		return s.channelMessage(seg[1], seg[3])

	case r.Method == "POST" && is("channels", "*", "messages"):
		return s.createMessage(seg[1], body)

	case r.Method == "PATCH" && is("channels", "*", "messages", "*"):
		m, ok := s.editMessage(seg[3], body)
		if !ok {
			return http.StatusNotFound, apiError(10008, "Unknown Message"), nil
		}
		return http.StatusOK, m, nil

	case r.Method == "POST" && is("interactions", "*", "*", "callback"):
		resp, err := decodeResponse(body)
		if err != nil {
			return http.StatusBadRequest, apiError(50035, "Invalid Form Body"), nil
		}
		if !s.acknowledge(seg[1], seg[2], resp) {
			return http.StatusBadRequest, apiError(40060, "Interaction has already been acknowledged."), nil
		}
		return http.StatusNoContent, nil, nil

	case r.Method == "POST" && is("webhooks", "*", "*"):
		var p discordgo.Message
		if err := json.Unmarshal(body, &p); err != nil {
			return http.StatusBadRequest, apiError(50035, "Invalid Form Body"), nil
		}
		m := s.newMessage("", p.Content, p.Embeds, p.Components, p.Flags)
		if r.URL.Query().Get("wait") == "true" {
			return http.StatusOK, m, nil
		}
		return http.StatusNoContent, nil, nil

	case (r.Method == "PATCH" || r.Method == "GET") && is("webhooks", "*", "*", "messages", "*"):
		return s.webhookMessage(r.Method, seg[2], seg[4], body)

	case r.Method == "PUT" && (is("applications", "*", "commands") || is("applications", "*", "guilds", "*", "commands")):
		return s.putCommands(seg, body)
	}
	return http.StatusNotFound, apiError(0, "404: Not Found"), nil
}

// maxButtonURL is the longest url Discord takes on a link button.
const maxButtonURL = 512

// checkButtons refuses the buttons of a message, an edit or an interaction
// response (under "data") that Discord refuses: a link button (style 5)
// needs an http(s) url of at most 512 characters and no custom_id; other
// buttons need a custom_id and no url; a row holds at most five.
func checkButtons(body []byte) error {
	var b struct {
		Components json.RawMessage `json:"components"`
		Data       *struct {
			Components json.RawMessage `json:"components"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &b) != nil {
		return nil // not an object: no components
	}
	raw := b.Components
	if b.Data != nil && len(b.Data.Components) > 0 {
		raw = b.Data.Components
	}
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m discordgo.Message
	if err := json.Unmarshal([]byte(`{"components":`+string(raw)+`}`), &m); err != nil {
		return fmt.Errorf("components: %v", err)
	}
	for _, c := range m.Components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		if len(row.Components) > 5 {
			return fmt.Errorf("%d components in a row, at most 5", len(row.Components))
		}
		for _, rc := range row.Components {
			bt, ok := rc.(*discordgo.Button)
			if !ok {
				continue
			}
			if bt.Style == discordgo.LinkButton {
				if bt.CustomID != "" || len(bt.URL) > maxButtonURL || !(strings.HasPrefix(bt.URL, "https://") || strings.HasPrefix(bt.URL, "http://")) {
					return fmt.Errorf("link button %q: url %q, custom_id %q", bt.Label, bt.URL, bt.CustomID)
				}
			} else if bt.CustomID == "" || bt.URL != "" {
				return fmt.Errorf("button %q of style %d: custom_id %q, url %q", bt.Label, bt.Style, bt.CustomID, bt.URL)
			}
		}
	}
	return nil
}

// createMessage answers POST /channels/{channel}/messages.
func (s *Server) createMessage(channel string, body []byte) (int, any, http.Header) {
	var ms discordgo.Message // MessageSend cannot decode components
	if err := json.Unmarshal(body, &ms); err != nil {
		return http.StatusBadRequest, apiError(50035, "Invalid Form Body"), nil
	}
	m := s.newMessage(channel, ms.Content, ms.Embeds, ms.Components, ms.Flags)
	if ms.MessageReference != nil {
		s.mu.Lock()
		s.messages[m.ID].MessageReference = ms.MessageReference
		s.mu.Unlock()
		m.MessageReference = ms.MessageReference
	}
	return http.StatusOK, m, nil
}

// webhookMessage answers GET and PATCH /webhooks/{app}/{token}/messages/{id}
// (id "@original": the interaction's response).
func (s *Server) webhookMessage(method, token, id string, body []byte) (int, any, http.Header) {
	if id == "@original" {
		s.mu.Lock()
		oid, ok := s.originals[token]
		s.mu.Unlock()
		if !ok {
			return http.StatusNotFound, apiError(10008, "Unknown Message"), nil
		}
		id = oid
	}
	if method == "GET" {
		if m := s.Message(id); m != nil {
			return http.StatusOK, m, nil
		}
		return http.StatusNotFound, apiError(10008, "Unknown Message"), nil
	}
	m, ok := s.editMessage(id, body)
	if !ok {
		return http.StatusNotFound, apiError(10008, "Unknown Message"), nil
	}
	return http.StatusOK, m, nil
}

// putCommands answers the bulk overwrite of an application's commands.
func (s *Server) putCommands(seg []string, body []byte) (int, any, http.Header) {
	var cmds []*discordgo.ApplicationCommand
	if err := json.Unmarshal(body, &cmds); err != nil {
		return http.StatusBadRequest, apiError(50035, "Invalid Form Body"), nil
	}
	for _, c := range cmds {
		c.ID = s.newID()
		c.ApplicationID = seg[1]
		if len(seg) == 5 {
			c.GuildID = seg[3]
		}
		c.Version = "1"
	}
	return http.StatusOK, cmds, nil
}

// acknowledge records an interaction response; the original response
// message exists from then on (as Discord creates it). It reports false if
// the interaction was acknowledged before.
// decodeResponse decodes an interaction response; discordgo's
// InteractionResponseData cannot decode components, Message can.
func decodeResponse(body []byte) (*discordgo.InteractionResponse, error) {
	var raw struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data json.RawMessage                   `json:"data"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, err
	}
	resp := &discordgo.InteractionResponse{Type: raw.Type}
	if len(raw.Data) > 0 && string(raw.Data) != "null" {
		var m discordgo.Message
		if err := json.Unmarshal(raw.Data, &m); err != nil {
			return nil, err
		}
		resp.Data = &discordgo.InteractionResponseData{Content: m.Content, Embeds: m.Embeds, Components: m.Components, Flags: m.Flags}
	}
	return resp, nil
}

func (s *Server) acknowledge(id, token string, resp *discordgo.InteractionResponse) bool {
	s.mu.Lock()
	_, dup := s.originals[token]
	s.mu.Unlock()
	if dup {
		return false
	}
	switch resp.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
	default:
		return true // PONG, modals, component updates: no new message
	}
	var content string
	var embeds []*discordgo.MessageEmbed
	var comps []discordgo.MessageComponent
	var flags discordgo.MessageFlags
	if resp.Data != nil {
		content, embeds, comps, flags = resp.Data.Content, resp.Data.Embeds, resp.Data.Components, resp.Data.Flags
	}
	m := s.newMessage("", content, embeds, comps, flags)
	s.mu.Lock()
	s.messages[m.ID].Interaction = &discordgo.MessageInteraction{ID: id}
	s.originals[token] = m.ID
	s.notifyLocked()
	s.mu.Unlock()
	return true
}

func (s *Server) newID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.newIDLocked()
}

func (s *Server) newIDLocked() string {
	s.nextID++
	return strconv.FormatInt(s.nextID, 10)
}

func (s *Server) newMessage(channel, content string, embeds []*discordgo.MessageEmbed, comps []discordgo.MessageComponent, flags discordgo.MessageFlags) *discordgo.Message {
	bot := s.BotUser
	m := &discordgo.Message{
		ID:         s.newID(),
		ChannelID:  channel,
		Content:    content,
		Embeds:     embeds,
		Components: comps,
		Flags:      flags,
		Author:     &bot,
		Timestamp:  time.Now().UTC(),
	}
	s.mu.Lock()
	s.messages[m.ID] = m
	s.mu.Unlock()
	c := *m
	return &c
}

// editMessage applies a PATCH body (content, embeds, components) to a stored
// message.
func (s *Server) editMessage(id string, body []byte) (*discordgo.Message, bool) {
	var e struct {
		Content *string                    `json:"content"`
		Embeds  *[]*discordgo.MessageEmbed `json:"embeds"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		return nil, false
	}
	var comps struct {
		Components *json.RawMessage `json:"components"`
	}
	json.Unmarshal(body, &comps)
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok {
		return nil, false
	}
	if e.Content != nil {
		m.Content = *e.Content
	}
	if e.Embeds != nil {
		m.Embeds = *e.Embeds
	}
	if comps.Components != nil {
		var msg discordgo.Message
		raw, _ := json.Marshal(map[string]json.RawMessage{"components": *comps.Components})
		if json.Unmarshal(raw, &msg) == nil {
			m.Components = msg.Components
		}
	}
	now := time.Now().UTC()
	m.EditedTimestamp = &now
	c := *m
	return &c, true
}

func (s *Server) takeRateLimit(method, path string) *rateLimit {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, rl := range s.limits {
		if rl.match != nil && !rl.match(method, path) {
			continue
		}
		rl.n--
		if rl.n <= 0 {
			s.limits = append(s.limits[:i], s.limits[i+1:]...)
		}
		return rl
	}
	return nil
}

func rateLimited(rl *rateLimit) (int, any, http.Header) {
	secs := rl.retryAfter.Seconds()
	h := http.Header{}
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset", strconv.FormatFloat(float64(time.Now().Add(rl.retryAfter).UnixMilli())/1000, 'f', 3, 64))
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", "fakebucket0000000000000000000000")
	scope := "user"
	if rl.global {
		h.Set("X-RateLimit-Global", "true")
		scope = "global"
	}
	h.Set("X-RateLimit-Scope", scope)
	return http.StatusTooManyRequests, map[string]any{
		"message":     "You are being rate limited.",
		"retry_after": secs,
		"global":      rl.global,
	}, h
}

// ---- HTTP interactions ----

// DeliverInteraction sends i to an HTTP interactions endpoint the way
// Discord does: signed with key at the current time. A 200 answer is
// recorded as the interaction's response (as a REST callback would be);
// it returns the status and body.
func (s *Server) DeliverInteraction(ctx context.Context, url string, key ed25519.PrivateKey, i *discordgo.Interaction) (int, []byte, error) {
	body, err := json.Marshal(i)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	SignInteraction(req.Header, key, strconv.FormatInt(time.Now().Unix(), 10), body)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, err
	}
	if resp.StatusCode == http.StatusOK {
		if ir, err := decodeResponse(out); err == nil {
			s.acknowledge(i.ID, i.Token, ir)
		}
	}
	return resp.StatusCode, out, nil
}

// SignInteraction sets the X-Signature-Ed25519 and X-Signature-Timestamp
// headers Discord sends with an HTTP interaction: an Ed25519 signature of
// timestamp+body.
func SignInteraction(h http.Header, key ed25519.PrivateKey, timestamp string, body []byte) {
	msg := append([]byte(timestamp), body...)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(key, msg)))
	h.Set("X-Signature-Timestamp", timestamp)
}
