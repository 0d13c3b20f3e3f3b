package slack

import (
	"context"
	"encoding/json"

	"github.com/slack-go/slack/socketmode"
)

// unparsedEvent is an events_api payload slack-go could not parse: an
// event type it does not model, or a shape it does not expect. Every event
// factbot answers is one slack-go (v0.36.0) models; such a payload is read
// for its type, logged, and acknowledged (never refused, which would have
// Slack deliver it again and again).
func (rt *router) unparsedEvent(payload []byte) {
	var outer struct {
		Event struct {
			Type string `json:"type"`
		} `json:"event"`
	}
	json.Unmarshal(payload, &outer)
	rt.log.Debug("slack: event slack-go does not parse; acknowledged and ignored", "type", outer.Event.Type)
}

// handleUnparsedEnvelope acknowledges a Socket Mode envelope slack-go could
// not parse (unparsedEvent).
func (rt *router) handleUnparsedEnvelope(ctx context.Context, sm *socketmode.Client, msg json.RawMessage) {
	var env struct {
		EnvelopeID string          `json:"envelope_id"`
		Type       string          `json:"type"`
		Payload    json.RawMessage `json:"payload"`
	}
	if json.Unmarshal(msg, &env) != nil || env.EnvelopeID == "" {
		rt.log.Warn("slack: socket mode message not understood; ignored")
		return
	}
	if env.Type == string(socketmode.RequestTypeEventsAPI) {
		rt.unparsedEvent(env.Payload)
	}
	if err := sm.AckCtx(ctx, env.EnvelopeID, nil); err != nil && ctx.Err() == nil {
		rt.log.Warn("slack: ack", "envelope", env.EnvelopeID, "err", err)
	}
}
