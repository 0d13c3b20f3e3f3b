package discord

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"

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

// ServeInteraction handles one HTTP interaction: the Ed25519 signature is
// verified before anything else (invalid → 401), PING is answered with
// PONG, and other interactions are stored and acknowledged in the response.
func (a *Adapter) ServeInteraction(w http.ResponseWriter, r *http.Request) {
	if a.pub == nil {
		http.NotFound(w, r)
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
	a.handleInteraction(context.WithoutCancel(r.Context()), &i, respond)
	if !responded {
		// A duplicate delivery (already answered) or an unknown interaction.
		w.WriteHeader(http.StatusNoContent)
	}
}
