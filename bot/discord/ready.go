package discord

import (
	"errors"
	"fmt"

	"github.com/bwmarrin/discordgo"
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

// onConnect and onDisconnect follow the gateway connection's state, which
// discordgo reconnects by itself.
func (a *Adapter) onConnect(_ *discordgo.Session, _ *discordgo.Connect) { a.conn.Up() }

func (a *Adapter) onDisconnect(_ *discordgo.Session, _ *discordgo.Disconnect) {
	a.conn.Down(errGatewayLost)
}
