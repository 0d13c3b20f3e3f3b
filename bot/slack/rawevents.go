package slack

import (
	"context"
	"encoding/json"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"
)

// unparsedEvent is an events_api payload slack-go could not parse (an
// event type it does not model, or a shape it does not expect), read from
// the raw JSON: the events factbot answers are decoded by their "type"
// into slack-go's structs and handled as parsed ones; any other is
// acknowledged and ignored (never refused, which would have Slack deliver
// it again and again).
func (rt *router) unparsedEvent(ctx context.Context, payload []byte) error {
	var outer struct {
		TeamID       string          `json:"team_id"`
		EnterpriseID string          `json:"enterprise_id"`
		EventID      string          `json:"event_id"`
		Event        json.RawMessage `json:"event"`

		Authorizations []slack.EventAuthorization `json:"authorizations"`
	}
	var inner struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(payload, &outer) != nil || json.Unmarshal(outer.Event, &inner) != nil {
		rt.log.Warn("slack: event not understood; acknowledged and ignored")
		return nil
	}
	var data any
	switch inner.Type {
	case "app_home_opened":
		data = &slackevents.AppHomeOpenedEvent{}
	case "app_context_changed":
		data = &slackevents.AppContextChangedEvent{}
	case "message":
		data = &slackevents.MessageEvent{}
	case "app_mention":
		data = &slackevents.AppMentionEvent{}
	default:
		rt.log.Debug("slack: event type not handled; acknowledged and ignored", "type", inner.Type)
		return nil
	}
	if err := json.Unmarshal(outer.Event, data); err != nil {
		rt.log.Warn("slack: event not understood; acknowledged and ignored", "type", inner.Type, "err", err)
		return nil
	}
	return rt.handleEvent(ctx, slackevents.EventsAPIEvent{
		Type: slackevents.CallbackEvent, TeamID: outer.TeamID, EnterpriseID: outer.EnterpriseID,
		Data: &slackevents.EventsAPICallbackEvent{TeamID: outer.TeamID, EnterpriseID: outer.EnterpriseID, EventID: outer.EventID,
			Authorizations: outer.Authorizations},
		InnerEvent: slackevents.EventsAPIInnerEvent{Type: inner.Type, Data: data},
	})
}

// handleUnparsedEnvelope handles a Socket Mode envelope slack-go could not
// parse: an events_api one is read from its raw payload (agent.go's
// unparsedEvent) and acknowledged once stored, like any other.
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
		if err := rt.unparsedEvent(ctx, env.Payload); err != nil {
			rt.log.Error("slack: request not stored; not acknowledged", "envelope", env.EnvelopeID, "err", err)
			return
		}
	}
	if err := sm.AckCtx(ctx, env.EnvelopeID, nil); err != nil && ctx.Err() == nil {
		rt.log.Warn("slack: ack", "envelope", env.EnvelopeID, "err", err)
	}
}
