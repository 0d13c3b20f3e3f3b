package slack

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/factbot-dev/factbot/bot"
)

// ---- HTTP mode ----

// Routes adds the HTTP-mode endpoints to mux when a signing secret is
// configured (POST /slack/events, /slack/commands, /slack/interactions);
// it reports whether it did. With an OAuth client it also adds the install
// flow (GET InstallPath, GET CallbackPath), in either mode.
func (a *Adapter) Routes(mux *http.ServeMux) bool {
	if a.ws.multi() {
		mux.HandleFunc("GET "+InstallPath, a.install.serveInstall)
		mux.HandleFunc("GET "+CallbackPath, a.install.serveCallback)
	}
	if a.cfg.SigningSecret == "" {
		return false
	}
	mux.Handle("POST /slack/events", a.router.verified(a.router.serveEvents))
	mux.Handle("POST /slack/commands", a.router.verified(a.router.serveCommands))
	mux.Handle("POST /slack/interactions", a.router.verified(a.router.serveInteractions))
	return true
}

const maxBody = 1 << 20

// Verify checks a request's Slack signature (v0 HMAC-SHA256 of
// "v0:timestamp:body" with the signing secret) and that its timestamp is
// within five minutes of now.
func Verify(secret string, header http.Header, body []byte, now time.Time) error {
	if err := fresh(header, now); err != nil {
		return err
	}
	ts, sig := header.Get("X-Slack-Request-Timestamp"), header.Get("X-Slack-Signature")
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:", ts)
	mac.Write(body)
	want := "v0=" + hex.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(want), []byte(sig)) {
		return errors.New("signature mismatch")
	}
	return nil
}

// fresh checks, before the body is read, that a request carries Slack's
// signature headers with a timestamp within five minutes of now.
func fresh(header http.Header, now time.Time) error {
	ts := header.Get("X-Slack-Request-Timestamp")
	if ts == "" || header.Get("X-Slack-Signature") == "" {
		return errors.New("missing signature headers")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("bad timestamp")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return errors.New("stale timestamp")
	}
	return nil
}

// verified checks the signature before anything else: a request without
// signature headers, or with a stale timestamp, is refused before its body
// is read; then the body (at most maxBody) is read and its signature
// checked. Failures get 401 and nothing is recorded.
func (rt *router) verified(h func(w http.ResponseWriter, r *http.Request, body []byte)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := fresh(r.Header, rt.cfg.Now()); err != nil {
			rt.log.Warn("slack: refused unsigned request", "path", r.URL.Path, "err", err)
			w.Header().Set("Connection", "close") // the unread body is not worth draining
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		if err := Verify(rt.cfg.SigningSecret, r.Header, body, rt.cfg.Now()); err != nil {
			rt.log.Warn("slack: refused unsigned request", "path", r.URL.Path, "err", err)
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h(w, r, body)
	})
}

func writeJSON(w http.ResponseWriter, v any) {
	if v == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func (rt *router) serveEvents(w http.ResponseWriter, r *http.Request, body []byte) {
	t0 := time.Now()
	ev, err := slackevents.ParseEvent(body, slackevents.OptionNoVerifyToken())
	if err != nil {
		var outer struct{ Type string }
		if json.Unmarshal(body, &outer) != nil || outer.Type != slackevents.CallbackEvent {
			http.Error(w, "bad event", http.StatusBadRequest)
			return
		}
		rt.unparsedEvent(body) // an event slack-go does not model: acknowledged
		w.WriteHeader(http.StatusOK)
		return
	}
	if ev.Type == slackevents.URLVerification {
		var c slackevents.ChallengeResponse
		if err := json.Unmarshal(body, &c); err != nil {
			http.Error(w, "bad challenge", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(c.Challenge))
		return
	}
	if err := rt.handleEvent(r.Context(), ev); err != nil {
		rt.log.Error("slack: event not stored", "err", err)
		http.Error(w, "try again", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
	rt.observeAck(t0)
}

func (rt *router) serveCommands(w http.ResponseWriter, r *http.Request, body []byte) {
	c, err := slack.SlashCommandParse(r)
	if err != nil {
		http.Error(w, "bad command", http.StatusBadRequest)
		return
	}
	payload, err := rt.handleCommand(r.Context(), c)
	if err != nil {
		rt.log.Error("slack: command not stored", "err", err)
		if payload == nil {
			payload = ephemeral(bot.UserMessage(err))
		}
	}
	writeJSON(w, payload)
}

func (rt *router) serveInteractions(w http.ResponseWriter, r *http.Request, body []byte) {
	form, err := url.ParseQuery(string(body))
	if err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	var cb slack.InteractionCallback
	if err := json.Unmarshal([]byte(form.Get("payload")), &cb); err != nil {
		http.Error(w, "bad payload", http.StatusBadRequest)
		return
	}
	payload, err := rt.handleInteraction(r.Context(), cb)
	if err != nil {
		rt.log.Error("slack: interaction not stored", "err", err)
		http.Error(w, "try again", http.StatusInternalServerError)
		return
	}
	writeJSON(w, payload)
}
