package slack

import (
	"fmt"

	"github.com/slack-go/slack/socketmode"
)

// Ready is nil while the adapter can receive events: in HTTP mode once
// auth.test has answered, in Socket Mode while its connection is open.
// factbot serve's /readyz reports it.
func (a *Adapter) Ready() error {
	if err := a.conn.Err(); err != nil {
		return fmt.Errorf("slack: %w", err)
	}
	return nil
}

// noteConnection follows the Socket Mode connection's state.
func (a *Adapter) noteConnection(t socketmode.EventType) {
	switch t {
	case socketmode.EventTypeConnected, socketmode.EventTypeHello:
		a.conn.Up()
	case socketmode.EventTypeConnecting, socketmode.EventTypeConnectionError, socketmode.EventTypeDisconnect, socketmode.EventTypeInvalidAuth:
		a.conn.Down(fmt.Errorf("socket mode: %s", t))
	}
}
