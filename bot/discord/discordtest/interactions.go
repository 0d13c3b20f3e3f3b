package discordtest

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/bwmarrin/discordgo"
)

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
