package slacktest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// assistant answers the assistant's methods as Slack does, recording each
// call: assistant.threads.setSuggestedPrompts (ok with a channel_id; see
// SetAgentView), .setStatus and .setTitle (ok, if their channel_id and
// thread_ts are set), chat.startStream (a new
// message ts, recorded in Call.TS), chat.appendStream and chat.stopStream
// (ok for a ts that chat.startStream returned and that is not stopped yet,
// else message_not_in_streaming_state).
func (s *Server) assistant(w http.ResponseWriter, c Call, ts string) {
	f := c.Form
	switch c.Method {
	case "chat.startStream":
		if f.Get("channel") == "" || f.Get("thread_ts") == "" {
			s.record(c)
			writeJSON(w, map[string]any{"ok": false, "error": "invalid_arguments"})
			return
		}
		c.TS = ts
		s.mu.Lock()
		if s.streaming == nil {
			s.streaming = map[string]bool{}
		}
		s.streaming[ts] = true
		s.mu.Unlock()
		s.record(c)
		writeJSON(w, map[string]any{"ok": true, "channel": f.Get("channel"), "ts": ts})
	case "chat.appendStream", "chat.stopStream":
		s.mu.Lock()
		open := s.streaming[f.Get("ts")]
		if c.Method == "chat.stopStream" {
			delete(s.streaming, f.Get("ts"))
		}
		s.mu.Unlock()
		s.record(c)
		if !open {
			writeJSON(w, map[string]any{"ok": false, "error": "message_not_in_streaming_state"})
			return
		}
		writeJSON(w, map[string]any{"ok": true, "channel": f.Get("channel"), "ts": f.Get("ts")})
	case "assistant.threads.setSuggestedPrompts":
		// thread_ts is optional: without it the prompts are set for the
		// channel. An agent app's call with thread_ts fails silently.
		s.mu.Lock()
		agent := s.agentView
		s.mu.Unlock()
		if agent && f.Get("thread_ts") != "" {
			c.Method += " (ignored)"
		}
		s.record(c)
		if f.Get("channel_id") == "" {
			writeJSON(w, map[string]any{"ok": false, "error": "invalid_arguments"})
			return
		}
		writeJSON(w, map[string]any{"ok": true})
	default:
		s.record(c)
		if f.Get("channel_id") == "" || f.Get("thread_ts") == "" {
			writeJSON(w, map[string]any{"ok": false, "error": "invalid_arguments"})
			return
		}
		writeJSON(w, map[string]any{"ok": true})
	}
}

// SetAgentView makes the fake an app of Slack's agent messaging
// experience (features.agent_view): assistant.threads.setSuggestedPrompts
// with a thread_ts answers ok but sets nothing, as Slack's does for such
// an app (recorded with the method " (ignored)").
func (s *Server) SetAgentView(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.agentView = on
}

// Chunks are the chunks a chat.*Stream call sent (its "chunks" JSON).
func (c Call) Chunks() []map[string]any {
	var out []map[string]any
	json.Unmarshal([]byte(c.Form.Get("chunks")), &out)
	return out
}

func event(team, eventID string, ev map[string]any) map[string]any {
	return map[string]any{"token": "tok", "team_id": team, "api_app_id": "A1", "type": "event_callback",
		"event_id": eventID, "event_time": 1700000000, "event": ev}
}

func assistantThread(typ, channel, threadTS, user, viewing string) map[string]any {
	ctx := map[string]any{}
	if viewing != "" {
		ctx = map[string]any{"channel_id": viewing, "team_id": TeamID, "enterprise_id": ""}
	}
	return map[string]any{"type": typ, "event_ts": "1700000000.000001",
		"assistant_thread": map[string]any{"user_id": user, "channel_id": channel, "thread_ts": threadTS, "context": ctx}}
}

// AssistantThreadStarted is an events_api payload for
// assistant_thread_started: user opened factbot's assistant, a thread
// threadTS of the DM channel, while viewing the channel viewing ("" for
// none).
func AssistantThreadStarted(eventID, channel, threadTS, user, viewing string) map[string]any {
	return event(TeamID, eventID, assistantThread("assistant_thread_started", channel, threadTS, user, viewing))
}

// AssistantContextChanged is an events_api payload for
// assistant_thread_context_changed: user now views the channel viewing.
func AssistantContextChanged(eventID, channel, threadTS, user, viewing string) map[string]any {
	return event(TeamID, eventID, assistantThread("assistant_thread_context_changed", channel, threadTS, user, viewing))
}

// AssistantMessage is an events_api payload for message.im: user wrote
// text as the message ts in the assistant thread threadTS of the DM
// channel, with files (as file_share) if any.
func AssistantMessage(eventID, channel, user, ts, threadTS, text string, files ...File) map[string]any {
	ev := map[string]any{"type": "message", "channel": channel, "channel_type": "im", "user": user, "text": text,
		"ts": ts, "thread_ts": threadTS, "event_ts": ts}
	if len(files) > 0 {
		ev["subtype"] = "file_share"
		var fs []map[string]any
		for _, f := range files {
			fs = append(fs, map[string]any{"id": f.ID, "name": f.Name, "mimetype": f.Mimetype, "size": len(f.Data)})
		}
		ev["files"] = fs
	}
	return event(TeamID, eventID, ev)
}

// DirectMessage is an events_api payload for message.im: user wrote text
// as the top-level message ts of their DM with factbot (the agent
// messaging experience's Messages tab), with files (as file_share) if any.
func DirectMessage(eventID, channel, user, ts, text string, files ...File) map[string]any {
	m := AssistantMessage(eventID, channel, user, ts, "", text, files...)
	delete(m["event"].(map[string]any), "thread_ts")
	return m
}

// AppHomeOpened is an events_api payload for app_home_opened: user opened
// the tab ("messages" or "home") of their DM channel with factbot, while
// viewing the channel viewing ("" for none: no context).
func AppHomeOpened(eventID, channel, user, tab, viewing string) map[string]any {
	ev := map[string]any{"type": "app_home_opened", "user": user, "channel": channel, "tab": tab, "event_ts": "1700000000.000002"}
	if viewing != "" {
		ev["context"] = appContext(viewing)
	}
	return event(TeamID, eventID, ev)
}

// AppContextChanged is an events_api payload for app_context_changed
// (the agent messaging experience): user, whose DM with factbot is channel,
// now views the channel viewing ("" for nothing: an empty context).
func AppContextChanged(eventID, channel, user, viewing string) map[string]any {
	ctx := map[string]any{}
	if viewing != "" {
		ctx = appContext(viewing)
	}
	return event(TeamID, eventID, map[string]any{"type": "app_context_changed", "user": user, "channel": channel,
		"context": ctx, "event_ts": "1700000000.000003"})
}

func appContext(channel string) map[string]any {
	return map[string]any{"entities": []any{map[string]any{"type": "slack#/types/channel_id", "value": channel, "team_id": TeamID}}}
}

// PostEvent delivers an events_api payload over HTTP, as Slack does in
// HTTP mode: POSTed as JSON to the app's events URL, signed with secret
// (v0, the current time). It returns the status code.
func PostEvent(eventsURL, secret string, payload any) (int, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return 0, err
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:%s", ts, b)
	req, err := http.NewRequest(http.MethodPost, eventsURL, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
