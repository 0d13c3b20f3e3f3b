package discordtest

import (
	"net/http"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// AddMessage stores a message someone posted, served by GET
// /channels/{channel}/messages/{id} (with its attachments, whose files
// AddFile serves).
func (s *Server) AddMessage(m *discordgo.Message) {
	c := *m
	s.mu.Lock()
	s.messages[m.ID] = &c
	s.mu.Unlock()
}

// AddFile serves data as an attachment's file, from the fake's own host
// (its CDN), and returns its URL.
func (s *Server) AddFile(name string, data []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	path := "/attachments/" + s.newIDLocked() + "/" + name
	s.files[path] = data
	return s.srv.URL + path
}

// serveFile serves an attachment's file, to anyone (Discord's CDN asks for
// no token), and records the request.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) bool {
	if !strings.HasPrefix(r.URL.Path, "/attachments/") {
		return false
	}
	s.mu.Lock()
	data, ok := s.files[r.URL.Path]
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Status: http.StatusOK})
	s.notifyLocked()
	s.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return true
	}
	w.Write(data)
	return true
}

// channelMessage answers GET /channels/{channel}/messages/{id}.
func (s *Server) channelMessage(channel, id string) (int, any, http.Header) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.messages[id]
	if !ok || m.ChannelID != channel {
		return http.StatusNotFound, apiError(10008, "Unknown Message"), nil
	}
	c := *m
	return http.StatusOK, &c, nil
}

// MessageReactionAdd pushes a MESSAGE_REACTION_ADD dispatch.
func (s *Server) MessageReactionAdd(r *discordgo.MessageReactionAdd) error {
	return s.Dispatch("MESSAGE_REACTION_ADD", r)
}
