package storetest_test

import (
	"testing"
	"time"

	"github.com/factbot-dev/factbot/store/storetest"
)

func TestMemory(t *testing.T) {
	storetest.Run(t, func(t *testing.T, now func() time.Time) storetest.Backend { return storetest.NewMemoryAt(now) })
}

func TestMemoryMaintained(t *testing.T) {
	storetest.RunMaintained(t, func(t *testing.T, now func() time.Time) storetest.Maintained {
		return storetest.NewMemoryAt(now)
	})
}
