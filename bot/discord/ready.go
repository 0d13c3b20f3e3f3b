package discord

import (
	"errors"
	"fmt"
)

// Ready is nil while the adapter can receive interactions and messages:
// once started, and while its gateway connection is open (or always after
// start, without a gateway). factbot serve's /readyz reports it.
func (a *Adapter) Ready() error {
	if err := a.conn.Err(); err != nil {
		return fmt.Errorf("discord: %w", err)
	}
	return nil
}

var errGatewayLost = errors.New("gateway disconnected, reconnecting")
