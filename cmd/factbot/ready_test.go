package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/bot"
)

// /readyz's 503 says the database is down, never its connection details
// (user, database, host, port), which go to the log instead.
func TestReadyzHidesConnectionDetails(t *testing.T) {
	cause := errors.New("failed to connect to `user=factbot database=factbot_prod`: 10.0.7.5:5433 (db.internal): dial error: connect: connection refused")
	var logs bytes.Buffer
	r := &readiness{ping: func(context.Context) error { return cause }, now: time.Now,
		log: slog.New(slog.NewTextHandler(&logs, nil))}
	if err := r.check(context.Background()); !errors.Is(err, cause) {
		t.Fatalf("check = %v, want it to wrap the cause", err)
	}
	rec := httptest.NewRecorder()
	bot.NewMux(bot.NewRegistry(), r.check).ServeHTTP(rec, httptest.NewRequest("GET", "/readyz", nil))
	body, _ := io.ReadAll(rec.Body)
	if rec.Code != http.StatusServiceUnavailable || !strings.Contains(string(body), "database") {
		t.Errorf("/readyz = %d %q, want 503 naming the database", rec.Code, body)
	}
	for _, detail := range []string{"factbot_prod", "user=", "10.0.7.5", "5433", "db.internal"} {
		if strings.Contains(string(body), detail) {
			t.Errorf("/readyz says %q: %q", detail, body)
		}
		if !strings.Contains(logs.String(), detail) {
			t.Errorf("the log lacks %q: %s", detail, logs.String())
		}
	}
}
