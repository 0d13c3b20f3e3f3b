package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
)

// maxInteractionBody bounds an HTTP interaction's body.
const maxInteractionBody = 1 << 20

// InteractionsPath is where HTTP interactions are accepted.
const InteractionsPath = "/discord/interactions"

// HTTPEnabled reports whether a public key was configured, so that
// interactions are also accepted over HTTP.
func (a *Adapter) HTTPEnabled() bool { return a.pub != nil }

// Routes adds POST /discord/interactions to mux when a public key is
// configured; it reports whether it did.
func (a *Adapter) Routes(mux *http.ServeMux) bool {
	if a.pub == nil {
		return false
	}
	mux.Handle("POST "+InteractionsPath, http.HandlerFunc(a.ServeInteraction))
	return true
}

// Bounds of an HTTP interaction's X-Signature-Timestamp: older, or further
// ahead, and it is refused, so that a captured request cannot be replayed
// once its dedupe key is forgotten.
const (
	maxSignatureAge  = 5 * time.Minute
	maxSignatureSkew = time.Minute
)

// fresh checks, before the body is read, that a request carries Discord's
// signature headers with a timestamp at most maxSignatureAge old and
// maxSignatureSkew ahead.
func fresh(h http.Header, now time.Time) error {
	ts := h.Get("X-Signature-Timestamp")
	if ts == "" || h.Get("X-Signature-Ed25519") == "" {
		return errors.New("missing signature headers")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("bad signature timestamp")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxSignatureAge || d < -maxSignatureSkew {
		return fmt.Errorf("signature timestamp %s is %v from now", ts, d.Round(time.Second))
	}
	return nil
}

// ServeInteraction handles one HTTP interaction: the signature headers and
// their timestamp's age are checked before the body is read, then the
// Ed25519 signature is verified before anything else (invalid → 401), PING
// is answered with PONG, and other interactions are stored and acknowledged
// in the response.
func (a *Adapter) ServeInteraction(w http.ResponseWriter, r *http.Request) {
	if a.pub == nil {
		http.NotFound(w, r)
		return
	}
	if err := fresh(r.Header, a.cfg.Now()); err != nil {
		// Before the body is read: an unsigned or replayed request costs
		// nothing more.
		a.log.Warn("refused HTTP interaction", "err", err)
		w.Header().Set("Connection", "close")
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxInteractionBody)
	if !discordgo.VerifyInteraction(r, a.pub) {
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	body, err := io.ReadAll(r.Body) // VerifyInteraction put the read body back
	if err != nil {
		http.Error(w, "cannot read body", http.StatusBadRequest)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		http.Error(w, "invalid interaction", http.StatusBadRequest)
		return
	}
	var once sync.Once
	responded := false
	respond := func(resp *discordgo.InteractionResponse) error {
		var err error
		once.Do(func() {
			responded = true
			w.Header().Set("Content-Type", "application/json")
			err = json.NewEncoder(w).Encode(resp)
			if f, ok := w.(http.Flusher); ok {
				f.Flush()
			}
		})
		return err
	}
	a.ix.handle(context.WithoutCancel(r.Context()), &i, respond)
	if !responded {
		// A duplicate delivery (already answered) or an unknown interaction.
		w.WriteHeader(http.StatusNoContent)
	}
}
