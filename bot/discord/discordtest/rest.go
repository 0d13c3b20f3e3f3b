package discordtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

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
