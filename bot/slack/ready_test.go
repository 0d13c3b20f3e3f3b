package slack_test

import (
	"strings"
	"testing"
	"time"
)

// waitReady polls the adapter's Ready until ok says it is as wanted (a
// hang guard of 30 s, as every wait of these tests: on a loaded machine
// the SDK takes seconds to see a closed connection).
func waitReady(t *testing.T, ready func() error, ok func(error) bool) error {
	t.Helper()
	var err error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if err = ready(); ok(err) {
			return err
		}
	}
	t.Fatalf("Ready = %v after 30 s", err)
	return err
}

// Ready follows the Socket Mode connection through the real SDK: ready
// once connected, not ready (saying why) once Slack is gone.
func TestReadyFollowsSocketMode(t *testing.T) {
	e := startMulti(t, false)
	waitReady(t, e.ad.Ready, func(err error) bool { return err == nil })
	e.fake.Close()
	err := waitReady(t, e.ad.Ready, func(err error) bool { return err != nil })
	if !strings.Contains(err.Error(), "slack: socket mode") {
		t.Errorf("Ready after Slack closed = %v, want it to name the socket mode connection", err)
	}
}
