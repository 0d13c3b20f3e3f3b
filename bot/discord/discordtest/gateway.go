package discordtest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sync"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

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
