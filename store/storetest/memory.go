package storetest

import (
	"time"

	"github.com/factbot-dev/factbot/store"
)

// Memory is the store over the in-memory driver, for tests: every rule of
// *store.DB, nothing durable.
type Memory struct{ *store.DB }

// NewMemory returns an empty Memory on the real clock.
func NewMemory() *Memory { return NewMemoryAt(nil) }

// NewMemoryAt returns an empty Memory that takes the time from now.
func NewMemoryAt(now func() time.Time) *Memory {
	return &Memory{store.NewMemory(store.Options{Now: now})}
}
