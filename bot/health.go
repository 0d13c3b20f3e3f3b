package bot

import (
	"errors"
	"sync"
)

// Connection is a platform adapter's connection state, for serve's
// /readyz: down until the adapter says it is connected, down again while
// it reconnects. The zero value is "not connected yet".
type Connection struct {
	mu  sync.Mutex
	up  bool
	err error
}

var errNotConnected = errors.New("not connected yet")

// Up records that the adapter is connected.
func (c *Connection) Up() {
	c.mu.Lock()
	c.up, c.err = true, nil
	c.mu.Unlock()
}

// Down records that the adapter is not connected, and why.
func (c *Connection) Down(why error) {
	if why == nil {
		why = errNotConnected
	}
	c.mu.Lock()
	c.up, c.err = false, why
	c.mu.Unlock()
}

// Err is nil while the adapter is connected, else why not.
func (c *Connection) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.up:
		return nil
	case c.err != nil:
		return c.err
	}
	return errNotConnected
}
