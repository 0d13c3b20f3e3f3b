// Package slacktest is a fake Slack for tests: an httptest Web API
// (auth.test, chat.postMessage, chat.update, chat.postEphemeral,
// conversations.info, users.info, conversations.history and .replies over the messages
// added with AddMessage, apps.connections.open, oauth.v2.access, the
// assistant's assistant.threads.* and chat.*Stream, see assistant.go), their
// files' downloads (with a token, as files.slack.com), the OAuth
// authorize page, response_url endpoints, and a local websocket server
// speaking Socket Mode (hello, envelopes, acks by envelope_id, pings).
// Point the real slack-go client at URL().
//
// Methods can be made to pace like Slack (Pace: n calls a window, per
// channel or per workspace, 429 with Retry-After past it), on the fake's
// own clock (Server.Now).
//
// Tokens have identities: those issued by oauth.v2.access (see Grant)
// belong to their workspace; any other token starting with "x" is the
// default workspace TeamID's. Every call records the token it came with.
package slacktest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Bot identity returned by auth.test.
const (
	BotUserID = "UBOT"
	BotID     = "BBOT"
	TeamID    = "T1"
)

// ChannelKind is what conversations.info says a conversation is.
type ChannelKind string

// Channel kinds for SetChannel.
const (
	PublicChannel  ChannelKind = "public"  // is_channel
	PrivateChannel ChannelKind = "private" // is_channel and is_private
	LegacyGroup    ChannelKind = "group"   // a private channel from before 2021: is_group and is_private
	IM             ChannelKind = "im"      // a direct message
	MPIM           ChannelKind = "mpim"    // a group direct message
	// NotFound answers {"ok":false,"error":"channel_not_found"}, as for a
	// private channel the bot is not in.
	NotFound ChannelKind = "not_found"
)

// Call is one Web API or response_url call received.
type Call struct {
	Method string     // "chat.postMessage", "chat.update", "response_url", ...
	Form   url.Values // form-encoded calls
	JSON   map[string]any
	// TS is the message ts the fake answered (chat.postMessage).
	TS string
	// Token is the token the call was authorised with.
	Token string
	At    time.Time
}

var jsonUnescaper = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")

// Text returns the call's text and blocks as sent: the mrkdwn Slack would
// parse, inside the blocks' JSON (with JSON's \u003c etc. decoded).
func (c Call) Text() string {
	if c.JSON == nil {
		return c.Form.Get("text") + "\n" + jsonUnescaper.Replace(c.Form.Get("blocks"))
	}
	b, _ := json.Marshal(c.JSON)
	return jsonUnescaper.Replace(string(b))
}

// Ack is a Socket Mode acknowledgement received.
type Ack struct {
	EnvelopeID string
	Payload    json.RawMessage
	At         time.Time
}

// Server is a fake Slack.
type Server struct {
	srv *httptest.Server
	// Calls receives every call (buffered; never blocks the server).
	Calls chan Call
	// Acks receives every Socket Mode ack.
	Acks chan Ack
	// Connected receives a value when a Socket Mode client connects.
	Connected chan struct{}

	mu      sync.Mutex
	calls   []Call
	limited map[string][]string // method → Retry-After values to answer first
	kinds   map[string]ChannelKind
	users   map[string]User
	hang    map[string]int // method → calls still to hang
	// messages are served by conversations.history and .replies.
	messages []Message
	// streaming are the streamed messages started and not yet stopped.
	streaming map[string]bool
	agentView bool                // see SetAgentView
	failing   map[string][]string // method → errors to answer first (see Fail)
	seq       int
	envSeq    int
	conn      *websocket.Conn

	// paces are the methods paced like Slack (Pace), and the calls they
	// let through, by method and channel or workspace.
	paces  map[string]pace
	passed map[string][]time.Time
	// Now is the server's clock (Pace, Call.At); default time.Now. Set it
	// before the first call.
	Now func() time.Time

	oauth   oauthState
	writeMu sync.Mutex
	closed  chan struct{}
}

// NewServer starts a fake Slack.
func NewServer() *Server {
	s := &Server{Calls: make(chan Call, 10000), Acks: make(chan Ack, 10000), Connected: make(chan struct{}, 10),
		limited: map[string][]string{}, paces: map[string]pace{}, passed: map[string][]time.Time{}, kinds: map[string]ChannelKind{}, users: map[string]User{}, hang: map[string]int{}, closed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("/api/{method}", s.api)
	mux.HandleFunc("/response/{id}", s.response)
	mux.HandleFunc("/ws", s.socket)
	mux.HandleFunc("GET /files-pri/{file}/download/{name}", s.file)
	mux.HandleFunc("GET /oauth/v2/authorize", s.authorize)
	s.srv = httptest.NewServer(mux)
	return s
}

// URL is the Web API base URL for slack.OptionAPIURL / SLACK_API_URL.
func (s *Server) URL() string { return s.srv.URL + "/api/" }

// ResponseURL returns a response_url for a command or interaction.
func (s *Server) ResponseURL(id string) string { return s.srv.URL + "/response/" + id }

// Close stops the server; later calls do nothing.
func (s *Server) Close() {
	select {
	case <-s.closed:
		return
	default:
	}
	close(s.closed)
	s.mu.Lock()
	if s.conn != nil {
		s.conn.Close()
	}
	s.mu.Unlock()
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// RateLimit makes the next len(retryAfter) calls of method answer 429 with
// those Retry-After values.
func (s *Server) RateLimit(method string, retryAfter ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limited[method] = append(s.limited[method], retryAfter...)
}

// Fail makes the next len(errs) calls of method answer
// {"ok":false,"error":…} with those errors (e.g. "not_allowed"), recorded
// as method+" (failed)".
func (s *Server) Fail(method string, errs ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failing == nil {
		s.failing = map[string][]string{}
	}
	s.failing[method] = append(s.failing[method], errs...)
}

// SetChannel sets what conversations.info answers for the channel id.
// Channels not set answer by their id, as Slack names them: D… an IM, G… a
// legacy private group, anything else a public channel.
func (s *Server) SetChannel(id string, kind ChannelKind) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.kinds[id] = kind
}

func (s *Server) channelKind(id string) ChannelKind {
	s.mu.Lock()
	k, ok := s.kinds[id]
	s.mu.Unlock()
	switch {
	case ok:
		return k
	case strings.HasPrefix(id, "D"):
		return IM
	case strings.HasPrefix(id, "G"):
		return LegacyGroup
	}
	return PublicChannel
}

// conversationInfo is conversations.info's answer for id.
func (s *Server) conversationInfo(id string) map[string]any {
	kind := s.channelKind(id)
	if id == "" || kind == NotFound {
		return map[string]any{"ok": false, "error": "channel_not_found"}
	}
	c := map[string]any{"id": id, "created": 1700000000, "is_archived": false,
		"is_channel": kind == PublicChannel || kind == PrivateChannel, "is_group": kind == LegacyGroup,
		"is_im": kind == IM, "is_mpim": kind == MPIM,
		"is_private": kind == PrivateChannel || kind == LegacyGroup || kind == MPIM}
	switch kind {
	case IM:
		c["user"] = "U0"
	case MPIM:
		c["name"] = "mpdm-a--b--c-1"
	default:
		c["name"] = "channel-" + strings.ToLower(id)
	}
	return map[string]any{"ok": true, "channel": c}
}

// User is what users.info answers of a person.
type User struct {
	Locale      string // e.g. "es-ES"; with include_locale only, as Slack does
	DisplayName string
	RealName    string
}

// SetUser sets what users.info answers for the user id. Users not set
// answer with locale "en-US" and their id as their name.
func (s *Server) SetUser(id string, u User) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[id] = u
}

// userInfo is users.info's answer for id.
func (s *Server) userInfo(id string, withLocale bool) map[string]any {
	if id == "" {
		return map[string]any{"ok": false, "error": "user_not_found"}
	}
	s.mu.Lock()
	u, ok := s.users[id]
	s.mu.Unlock()
	if !ok {
		u = User{Locale: "en-US", RealName: id}
	}
	user := map[string]any{"id": id, "name": strings.ToLower(id), "real_name": u.RealName,
		"profile": map[string]any{"display_name": u.DisplayName, "real_name": u.RealName}}
	if withLocale {
		user["locale"] = u.Locale
	}
	return map[string]any{"ok": true, "user": user}
}

// Hang makes the next n calls of method hang: they are recorded as
// method+" (hung)" and never answered, until the caller gives up or the
// server closes.
func (s *Server) Hang(method string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hang[method] += n
}

// Recorded returns every call so far, optionally only of the given methods.
func (s *Server) Recorded(methods ...string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if len(methods) == 0 || contains(methods, c.Method) {
			out = append(out, c)
		}
	}
	return out
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func (s *Server) record(c Call) {
	c.At = s.now()
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
	select {
	case s.Calls <- c:
	default:
	}
}

func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	method := r.PathValue("method")
	s.mu.Lock()
	if q := s.limited[method]; len(q) > 0 {
		s.limited[method] = q[1:]
		s.mu.Unlock()
		w.Header().Set("Retry-After", q[0])
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"ok":false,"error":"ratelimited"}`)
		s.record(Call{Method: method + " (429)"})
		return
	}
	if q := s.failing[method]; len(q) > 0 {
		s.failing[method] = q[1:]
		s.mu.Unlock()
		r.ParseForm()
		s.record(Call{Method: method + " (failed)", Form: r.PostForm})
		writeJSON(w, map[string]any{"ok": false, "error": q[0]})
		return
	}
	if s.hang[method] > 0 {
		s.hang[method]--
		s.mu.Unlock()
		r.ParseForm()
		s.record(Call{Method: method + " (hung)", Form: r.PostForm})
		select {
		case <-r.Context().Done():
		case <-s.closed:
		}
		return
	}
	s.seq++
	ts := fmt.Sprintf("1700000000.%06d", s.seq)
	s.mu.Unlock()
	r.ParseForm()
	if method == "oauth.v2.access" {
		s.record(Call{Method: method, Form: r.PostForm})
		writeJSON(w, s.access(r))
		return
	}
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	if token == r.Header.Get("Authorization") {
		token = r.PostForm.Get("token")
	}
	id, err := s.identity(token)
	if err != "" {
		writeJSON(w, map[string]any{"ok": false, "error": err})
		return
	}
	c := Call{Method: method, Form: r.PostForm, Token: token}
	s.mu.Lock()
	wait := s.paced(method, id.Team, c.Form.Get("channel"))
	s.mu.Unlock()
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.FormatInt(int64(math.Ceil(wait.Seconds())), 10))
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprint(w, `{"ok":false,"error":"ratelimited"}`)
		s.record(Call{Method: method + " (429)", Form: r.PostForm, Token: token})
		return
	}
	switch method {
	case "auth.test":
		writeJSON(w, map[string]any{"ok": true, "user_id": id.BotUserID, "bot_id": BotID, "team_id": id.Team, "enterprise_id": id.Enterprise, "user": "factbot", "team": "Test"})
		return
	case "apps.connections.open":
		writeJSON(w, map[string]any{"ok": true, "url": "ws" + strings.TrimPrefix(s.srv.URL, "http") + "/ws"})
		return
	case "chat.postMessage":
		c.TS = ts
		s.record(c)
		writeJSON(w, map[string]any{"ok": true, "channel": c.Form.Get("channel"), "ts": ts,
			"message": map[string]any{"ts": ts, "text": c.Form.Get("text")}})
	case "chat.update":
		s.record(c)
		writeJSON(w, map[string]any{"ok": true, "channel": c.Form.Get("channel"), "ts": c.Form.Get("ts"), "text": c.Form.Get("text")})
	case "chat.postEphemeral":
		s.record(c)
		writeJSON(w, map[string]any{"ok": true, "message_ts": ts})
	case "conversations.info":
		s.record(c)
		writeJSON(w, s.conversationInfo(c.Form.Get("channel")))
	case "conversations.history":
		s.record(c)
		writeJSON(w, s.history(c.Form))
	case "conversations.replies":
		s.record(c)
		writeJSON(w, s.replies(c.Form))
	case "users.info":
		s.record(c)
		writeJSON(w, s.userInfo(c.Form.Get("user"), c.Form.Get("include_locale") == "true"))
	case "assistant.threads.setSuggestedPrompts", "assistant.threads.setStatus", "assistant.threads.setTitle",
		"chat.startStream", "chat.appendStream", "chat.stopStream":
		s.assistant(w, c, ts)
	default:
		s.record(c)
		writeJSON(w, map[string]any{"ok": false, "error": "unknown_method"})
	}
}

func (s *Server) response(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	json.Unmarshal(b, &m)
	s.record(Call{Method: "response_url", JSON: m, Form: url.Values{"id": {r.PathValue("id")}}})
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "ok")
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

var upgrader = websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}

func (s *Server) socket(w http.ResponseWriter, r *http.Request) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	s.write(map[string]any{"type": "hello", "num_connections": 1,
		"connection_info": map[string]any{"app_id": "A1"}, "debug_info": map[string]any{"host": "fake"}})
	s.ping()
	select {
	case s.Connected <- struct{}{}:
	default:
	}
	done := make(chan struct{})
	defer close(done)
	go func() { // Slack pings its clients; slack-go reconnects without them.
		t := time.NewTicker(5 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				s.ping()
			case <-done:
				return
			case <-s.closed:
				return
			}
		}
	}()
	for {
		_, b, err := conn.ReadMessage()
		if err != nil {
			return
		}
		var a struct {
			EnvelopeID string          `json:"envelope_id"`
			Payload    json.RawMessage `json:"payload"`
		}
		if json.Unmarshal(b, &a) == nil && a.EnvelopeID != "" {
			select {
			case s.Acks <- Ack{EnvelopeID: a.EnvelopeID, Payload: a.Payload, At: time.Now()}:
			default:
			}
		}
	}
}

func (s *Server) ping() {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	c.WriteControl(websocket.PingMessage, []byte("ping"), time.Now().Add(time.Second))
}

func (s *Server) write(v any) error {
	s.mu.Lock()
	c := s.conn
	s.mu.Unlock()
	if c == nil {
		return fmt.Errorf("slacktest: no socket mode client connected")
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	return c.WriteJSON(v)
}

// Send delivers a Socket Mode envelope ("events_api", "slash_commands",
// "interactive") with a new envelope id, which it returns.
func (s *Server) Send(typ string, payload any) (string, error) {
	s.mu.Lock()
	s.envSeq++
	id := fmt.Sprintf("env-%d", s.envSeq)
	s.mu.Unlock()
	return id, s.SendEnvelope(id, typ, payload, 0)
}

// SendEnvelope delivers an envelope with the given id and retry attempt
// (Slack's redeliveries reuse the payload with a new envelope id).
func (s *Server) SendEnvelope(id, typ string, payload any, retry int) error {
	return s.write(map[string]any{"type": typ, "envelope_id": id, "payload": payload,
		"accepts_response_payload": typ != "events_api", "retry_attempt": retry})
}

// Mention is an events_api payload for an app_mention.
func Mention(eventID, channel, user, ts, text string) map[string]any {
	return map[string]any{
		"token": "tok", "team_id": TeamID, "api_app_id": "A1", "type": "event_callback",
		"event_id": eventID, "event_time": 1700000000,
		"event": map[string]any{"type": "app_mention", "user": user, "text": text, "ts": ts,
			"channel": channel, "event_ts": ts},
	}
}

// MentionInThread is Mention of a message in the thread of threadTS.
func MentionInThread(eventID, channel, user, ts, threadTS, text string) map[string]any {
	m := Mention(eventID, channel, user, ts, text)
	m["event"].(map[string]any)["thread_ts"] = threadTS
	return m
}

// Reaction is an events_api payload for reaction_added: user added the
// reaction name to the message ts of channel, written by itemUser.
func Reaction(eventID, channel, user, name, ts, itemUser string) map[string]any {
	return map[string]any{
		"token": "tok", "team_id": TeamID, "api_app_id": "A1", "type": "event_callback",
		"event_id": eventID, "event_time": 1700000000,
		"event": map[string]any{"type": "reaction_added", "user": user, "reaction": name, "item_user": itemUser,
			"item": map[string]any{"type": "message", "channel": channel, "ts": ts}, "event_ts": "1700000001.000100"},
	}
}

// MentionIn is Mention in workspace team.
func MentionIn(team, eventID, channel, user, ts, text string) map[string]any {
	m := Mention(eventID, channel, user, ts, text)
	m["team_id"] = team
	return m
}

// Uninstalled is an events_api payload for app_uninstalled in team.
func Uninstalled(team, eventID string) map[string]any {
	return map[string]any{"token": "tok", "team_id": team, "api_app_id": "A1", "type": "event_callback",
		"event_id": eventID, "event_time": 1700000000, "event": map[string]any{"type": "app_uninstalled"}}
}

// TokensRevoked is an events_api payload for tokens_revoked in team: the
// bot tokens of the given bot user ids (none: only user tokens).
func TokensRevoked(team, eventID string, botUsers ...string) map[string]any {
	tokens := map[string]any{"oauth": []string{"U0"}}
	if len(botUsers) > 0 {
		tokens["bot"] = botUsers
	}
	return map[string]any{"token": "tok", "team_id": team, "api_app_id": "A1", "type": "event_callback",
		"event_id": eventID, "event_time": 1700000000, "event": map[string]any{"type": "tokens_revoked", "tokens": tokens}}
}

// Command is a slash_commands payload.
func Command(triggerID, channel, user, text, responseURL string) map[string]any {
	return map[string]any{"token": "tok", "team_id": TeamID, "channel_id": channel, "user_id": user,
		"command": "/factcheck", "text": text, "response_url": responseURL, "trigger_id": triggerID, "api_app_id": "A1"}
}
