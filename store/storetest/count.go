package storetest

import (
	"context"

	"github.com/factbot-dev/factbot/store"
)

// RequestCount is how many requests the store holds, over every tenant: a
// test's way to see that refused or redelivered events stored nothing.
func (m *Memory) RequestCount() int {
	ctx := context.Background()
	tenants, _ := m.UserTenants(ctx)
	n := 0
	for _, t := range tenants {
		m.EachRequest(ctx, t, func(*store.Request) error { n++; return nil })
	}
	return n
}
