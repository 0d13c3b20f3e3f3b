// Package wait has the one context-aware sleep that the retrying clients
// (model providers, chat adapters) use between attempts.
package wait

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx is done, whichever comes first; it returns
// ctx's error in the second case. A d of zero or less only checks ctx.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
