package slacktest

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Message is a message of a channel the fake serves through
// conversations.history and conversations.replies.
type Message struct {
	Channel string
	TS      string
	// ThreadTS is the thread's first message, for a reply (empty for a
	// message of the channel).
	ThreadTS string
	User     string
	Text     string
	Files    []File
}

// File is a file attached to a message, downloaded from the fake's file
// host (url_private_download) with a workspace's token.
type File struct {
	ID       string
	Name     string
	Mimetype string
	Data     []byte
	// RedirectTo, if set, answers the download with a 302 to it.
	RedirectTo string
	// URL, if set, is its url_private_download instead of the fake's.
	URL string
}

// AddMessage adds a message to its channel.
func (s *Server) AddMessage(m Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.messages = append(s.messages, m)
}

// FileURL is the url_private_download of a file with this id and name.
func (s *Server) FileURL(id, name string) string {
	return s.srv.URL + "/files-pri/" + TeamID + "-" + id + "/download/" + url.PathEscape(name)
}

// messageJSON is a message as the Web API returns it.
func (s *Server) messageJSON(m Message) map[string]any {
	j := map[string]any{"type": "message", "ts": m.TS, "user": m.User, "text": m.Text}
	if m.ThreadTS != "" {
		j["thread_ts"] = m.ThreadTS
	}
	var files []map[string]any
	for _, f := range m.Files {
		u := cmp.Or(f.URL, s.FileURL(f.ID, f.Name))
		files = append(files, map[string]any{"id": f.ID, "name": f.Name, "mimetype": f.Mimetype, "size": len(f.Data),
			"url_private": u, "url_private_download": u})
	}
	if files != nil {
		j["files"] = files
	}
	return j
}

// inRange says whether ts is within the call's oldest and latest (both
// inclusive when inclusive=1, Slack's default being exclusive).
func inRange(ts string, form url.Values) bool {
	incl := form.Get("inclusive") == "1" || form.Get("inclusive") == "true"
	if o := form.Get("oldest"); o != "" && (ts < o || ts == o && !incl) {
		return false
	}
	if l := form.Get("latest"); l != "" && (ts > l || ts == l && !incl) {
		return false
	}
	return true
}

// history answers conversations.history: the channel's messages (not
// thread replies) in range, newest first, at most limit.
func (s *Server) history(form url.Values) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.messages {
		if m.Channel == form.Get("channel") && (m.ThreadTS == "" || m.ThreadTS == m.TS) && inRange(m.TS, form) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b Message) int { return cmp.Compare(b.TS, a.TS) })
	return map[string]any{"ok": true, "messages": s.page(out, form), "has_more": false}
}

// replies answers conversations.replies: the thread of ts (its first
// message, then the replies), in range, oldest first.
func (s *Server) replies(form url.Values) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	root := ""
	for _, m := range s.messages {
		if m.Channel == form.Get("channel") && m.TS == form.Get("ts") {
			root = cmp.Or(m.ThreadTS, m.TS)
		}
	}
	if root == "" {
		return map[string]any{"ok": false, "error": "thread_not_found"}
	}
	var out []Message
	for _, m := range s.messages {
		if m.Channel == form.Get("channel") && (m.TS == root || m.ThreadTS == root) && (m.TS == root || inRange(m.TS, form)) {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b Message) int { return cmp.Compare(a.TS, b.TS) })
	return map[string]any{"ok": true, "messages": s.page(out, form), "has_more": false}
}

func (s *Server) page(ms []Message, form url.Values) []map[string]any {
	out := []map[string]any{}
	for _, m := range ms {
		if l := form.Get("limit"); l != "" && l != "0" && len(out) >= atoi(l) {
			break
		}
		out = append(out, s.messageJSON(m))
	}
	return out
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// file serves a file's download: with a workspace's bearer token only, as
// files.slack.com does, recording the call as "files" with its token.
func (s *Server) file(w http.ResponseWriter, r *http.Request) {
	token := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.record(Call{Method: "files", Token: token, Form: url.Values{"path": {r.URL.Path}}})
	if _, err := s.identity(token); err != "" || token == "" {
		http.Error(w, "not authed", http.StatusForbidden)
		return
	}
	id := strings.TrimPrefix(r.PathValue("file"), TeamID+"-")
	s.mu.Lock()
	var f *File
	for _, m := range s.messages {
		for i := range m.Files {
			if m.Files[i].ID == id {
				f = &m.Files[i]
			}
		}
	}
	s.mu.Unlock()
	switch {
	case f == nil:
		http.NotFound(w, r)
	case f.RedirectTo != "":
		http.Redirect(w, r, f.RedirectTo, http.StatusFound)
	default:
		w.Header().Set("Content-Type", f.Mimetype)
		w.Write(f.Data)
	}
}
