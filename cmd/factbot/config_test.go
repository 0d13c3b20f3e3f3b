package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/internal/usererr"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestConfigCommand runs factbot config over environments and compares
// what it prints (stdout, stderr, exit status) with testdata/config/*.golden.
func TestConfigCommand(t *testing.T) {
	geminiKey := "AIzaSyA-" + strings.Repeat("x", 31) // 39 characters, like a real key
	tests := []struct {
		name     string
		env      map[string]string
		wantCode int
	}{
		{"empty", map[string]string{}, exitUsage},
		{"gemini-slack-socket", map[string]string{
			"GEMINI_API_KEY": geminiKey, "TAVILY_API_KEY": "tvly-" + strings.Repeat("t", 27), "BRAVE_API_KEY": "b",
			"SLACK_BOT_TOKEN": "xoxb-1234567890-abcdefghij", "SLACK_APP_TOKEN": "xapp-1-A1-1234567890-abcdef",
			"FACTBOT_CACHE_TTL": "7d", "USER": "ada",
		}, exitOK},
		{"openai-local-discord-http", map[string]string{
			"FACTBOT_LLM": "openai", "FACTBOT_MODEL": "qwen3:8b", "OPENAI_BASE_URL": "http://localhost:11434/v1",
			"SEARXNG_URL": "http://localhost:8888", "FACTBOT_SEARCH": "searxng",
			"DISCORD_BOT_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.0123456789", "DISCORD_PUBLIC_KEY": strings.Repeat("0f", 32),
			"DISCORD_GUILD_ID": "42", "FACTBOT_USER_LIMIT": "off", "FACTBOT_HTTP_ADDR": "127.0.0.1:9090",
		}, exitOK},
		{"web-view", map[string]string{
			"GEMINI_API_KEY": geminiKey, "DISCORD_BOT_TOKEN": "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.0123456789",
			"FACTBOT_PUBLIC_URL": "https://factbot.example.org/", "FACTBOT_WEB_SECRET": strings.Repeat("5e", 32),
			"FACTBOT_WEB_ADMIN_TOKEN": strings.Repeat("ad", 20), "FACTBOT_WEB_LINK_TTL": "30d,2h",
		}, exitOK},
		{"invalid", map[string]string{
			"GOOGLE_API_KEY": geminiKey, "FACTBOT_LLM": "claude", "FACTBOT_CACHE_TTL": "soon",
			"FACTBOT_SEARCH": "tavily", "SLACK_BOT_TOKEN": "xoxb-1", "DISCORD_PUBLIC_KEY": "abcd",
		}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(k string) string { return tt.env[k] }}
			code := run(context.Background(), a, []string{"config"})
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, errb.String())
			}
			for k, v := range tt.env {
				if (strings.Contains(k, "KEY") || strings.Contains(k, "TOKEN") || strings.Contains(k, "SECRET")) && k != "DISCORD_PUBLIC_KEY" {
					if len(v) > 4 && strings.Contains(out.String()+errb.String(), v[4:]) {
						t.Errorf("the output shows more of %s than its first 4 characters", k)
					}
				}
			}
			got := fmt.Sprintf("%s--- stderr ---\n%s--- exit %d ---\n", out.String(), errb.String(), code)
			golden := filepath.Join("testdata", "config", tt.name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("factbot config output (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConfigCommandUsage(t *testing.T) {
	a, errb := testApp(map[string]string{})
	if code := run(context.Background(), a, []string{"config", "extra"}); code != exitUsage || !strings.Contains(errb.String(), `unexpected argument "extra"`) {
		t.Errorf("config extra: exit %d, stderr %q", code, errb)
	}
	a, _ = testApp(map[string]string{})
	if code := run(context.Background(), a, []string{"config", "-h"}); code != exitOK {
		t.Errorf("config -h: exit %d, want 0", code)
	}
}

// exitStatus is the one mapping from errors to exit statuses and messages.
func TestExitStatus(t *testing.T) {
	cause := errors.New("dial tcp 10.0.0.1:443: connection refused")
	tests := []struct {
		name       string
		err        error
		wantCode   int
		wantStderr string
	}{
		{"success", nil, exitOK, ""},
		{"help", flag.ErrHelp, exitOK, ""},
		{"usage", usagef("--limit 0: want 1 to 100"), exitUsage, "factbot cmd: --limit 0: want 1 to 100\n"},
		{"usage already reported", &usageError{err: errors.New("flag provided but not defined: -x")}, exitUsage, ""},
		{"configuration", fmt.Errorf("building the engine: %w", &usererr.Config{Var: "GEMINI_API_KEY", Msg: "not set", Hint: "get one"}), exitUsage,
			"factbot cmd: GEMINI_API_KEY: not set (get one)\n"},
		{"several configuration errors", errors.Join(&usererr.Config{Var: "A", Msg: "bad"}, &usererr.Config{Var: "B", Msg: "worse"}), exitUsage,
			"factbot cmd: A: bad\nfactbot cmd: B: worse\n"},
		{"user-facing", fmt.Errorf("show: %w", &usererr.Error{Msg: "no check \"x\" in tenant cli", Err: cause}), exitFailed,
			"factbot cmd: no check \"x\" in tenant cli\n"},
		{"internal", fmt.Errorf("the check failed: %w", cause), exitFailed,
			"factbot cmd: the check failed: dial tcp 10.0.0.1:443: connection refused\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if code := exitStatus(&b, "cmd", tt.err); code != tt.wantCode {
			t.Errorf("%s: exit %d, want %d", tt.name, code, tt.wantCode)
		}
		if diff := cmp.Diff(tt.wantStderr, b.String()); diff != "" {
			t.Errorf("%s: stderr (-want +got):\n%s", tt.name, diff)
		}
	}
}
