package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

func init() {
	register("serve", command{summary: "run the Slack and Discord bots (and /healthz, /metrics)", run: runServe})
	registerAdapter(adapterSpec{
		name: "slack",
		vars: "SLACK_BOT_TOKEN with SLACK_APP_TOKEN (Socket Mode) or SLACK_SIGNING_SECRET (HTTP mode)",
		configured: func(getenv func(string) string) bool {
			return getenv("SLACK_BOT_TOKEN") != "" || getenv("SLACK_APP_TOKEN") != "" || getenv("SLACK_SIGNING_SECRET") != ""
		},
		build: buildSlack,
	})
}

// chatAdapter is one chat platform run by serve: the core's Platform, plus
// Run, which connects (Socket Mode, gateway) and blocks until ctx ends.
type chatAdapter interface {
	bot.Platform
	Run(ctx context.Context) error
}

// adapterSpec describes a platform serve can run. Each platform registers
// one from its own file (serve.go: Slack, serve_discord.go: Discord).
type adapterSpec struct {
	name string
	// vars names the variables that enable it, for the "nothing
	// configured" error.
	vars string
	// configured reports whether the environment asks for this platform.
	configured func(getenv func(string) string) bool
	// build makes the adapter; it may add HTTP routes to mux. Errors that are
	// *usererr.Config exit with status 2.
	build func(ctx context.Context, a *app, svc *bot.Service, mux *http.ServeMux) (chatAdapter, error)
}

var adapterSpecs []adapterSpec

func registerAdapter(s adapterSpec) { adapterSpecs = append(adapterSpecs, s) }

// Seams for tests.
var (
	// serveChecker builds the engine; tests replace it with a fake.
	serveChecker = func(ctx context.Context, a *app, db *store.DB) (bot.Checker, error) { return newChecker(ctx, a, db) }
	// serveListening, if set, is told the HTTP server's address.
	serveListening func(addr net.Addr)
)

func buildSlack(ctx context.Context, a *app, svc *bot.Service, mux *http.ServeMux) (chatAdapter, error) {
	cfg := slack.Config{
		BotToken:      a.getenv("SLACK_BOT_TOKEN"),
		AppToken:      a.getenv("SLACK_APP_TOKEN"),
		SigningSecret: a.getenv("SLACK_SIGNING_SECRET"),
		APIURL:        a.getenv("SLACK_API_URL"),
		Logger:        serveLogger(a),
	}
	if cfg.BotToken == "" {
		return nil, &usererr.Config{Var: "SLACK_BOT_TOKEN", Msg: "not set",
			Hint: "the Bot User OAuth Token (xoxb-…) from your Slack app's OAuth & Permissions page"}
	}
	if cfg.AppToken == "" && cfg.SigningSecret == "" {
		return nil, &usererr.Config{Var: "SLACK_APP_TOKEN", Msg: "neither SLACK_APP_TOKEN nor SLACK_SIGNING_SECRET is set",
			Hint: "for Socket Mode create an app-level token (xapp-…) with connections:write under Basic Information; for HTTP mode set SLACK_SIGNING_SECRET from the same page"}
	}
	if cfg.AppToken != "" && !strings.HasPrefix(cfg.AppToken, "xapp-") {
		return nil, &usererr.Config{Var: "SLACK_APP_TOKEN", Msg: "is not an app-level token (xapp-…)",
			Hint: "Basic Information → App-Level Tokens, scope connections:write"}
	}
	ad, err := slack.New(cfg, svc)
	if err != nil {
		return nil, err
	}
	ad.Routes(mux)
	mode := "socket mode"
	if cfg.AppToken == "" {
		mode = "HTTP mode (POST /slack/events, /slack/commands, /slack/interactions)"
	} else if cfg.SigningSecret != "" {
		mode = "socket mode and HTTP mode"
	}
	cfg.Logger.Info("slack: enabled", "mode", mode)
	return ad, nil
}

func serveLogger(a *app) *slog.Logger {
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

func runServe(ctx context.Context, a *app, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	addr := fs.String("addr", envOr(a, "FACTBOT_HTTP_ADDR", ":8080"), "HTTP address for /healthz, /metrics and HTTP-mode webhooks (FACTBOT_HTTP_ADDR)")
	limit := fs.String("user-limit", envOr(a, "FACTBOT_USER_LIMIT", "10/10m"), "checks per user per window, e.g. 10/10m; off disables (FACTBOT_USER_LIMIT)")
	workers := fs.Int("workers", 8, "checks run at once")
	fs.Usage = func() {
		fmt.Fprintln(a.stderr, "Usage: factbot serve [flags]\n\nRuns the chat bots configured in the environment: Slack (SLACK_BOT_TOKEN with\nSLACK_APP_TOKEN or SLACK_SIGNING_SECRET) and Discord (DISCORD_BOT_TOKEN).\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(a.stderr, "factbot serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	log := serveLogger(a)

	var specs []adapterSpec
	var names []string
	for _, s := range adapterSpecs {
		names = append(names, s.vars)
		if s.configured(a.getenv) {
			specs = append(specs, s)
		}
	}
	if len(specs) == 0 {
		fmt.Fprintf(a.stderr, "factbot serve: no chat platform configured; set %s\n", strings.Join(names, ", or "))
		return exitUsage
	}
	userLimit, err := bot.ParseLimit(*limit)
	if err != nil {
		fmt.Fprintf(a.stderr, "factbot serve: FACTBOT_USER_LIMIT: %v\n", err)
		return exitUsage
	}

	db, err := openStore(a)
	if err != nil {
		return storeFailed(a, err)
	}
	defer db.Close()
	ck, err := serveChecker(ctx, a, db)
	if err != nil {
		fmt.Fprintf(a.stderr, "factbot serve: %v\n", err)
		if _, ok := usererr.Message(err); ok {
			return exitUsage
		}
		return exitFailed
	}

	reg := bot.NewRegistry()
	svc := bot.New(db, ck, bot.Options{
		Workers: *workers, UserLimit: userLimit, NoUserLimit: userLimit == (bot.Limit{}),
		Metrics: bot.NewMetrics(reg), Logger: log,
	})
	mux := bot.NewMux(reg, nil)

	var adapters []chatAdapter
	for _, s := range specs {
		ad, err := s.build(ctx, a, svc, mux)
		if err != nil {
			fmt.Fprintf(a.stderr, "factbot serve: %s: %v\n", s.name, err)
			var ce *usererr.Config
			if errors.As(err, &ce) {
				return exitUsage
			}
			return exitFailed
		}
		svc.Register(ad)
		adapters = append(adapters, ad)
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(a.stderr, "factbot serve: FACTBOT_HTTP_ADDR %s: %v\n", *addr, err)
		return exitUsage
	}
	if err := svc.Start(ctx); err != nil {
		ln.Close()
		fmt.Fprintf(a.stderr, "factbot serve: %v\n", err)
		return exitFailed
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	httpErr := make(chan error, 1)
	go func() { httpErr <- srv.Serve(ln) }()
	log.Info("factbot serve: listening", "addr", ln.Addr().String())
	if serveListening != nil {
		serveListening(ln.Addr())
	}

	runCtx, stop := context.WithCancel(ctx)
	adErr := make(chan error, len(adapters))
	for _, ad := range adapters {
		go func() {
			if err := ad.Run(runCtx); err != nil {
				adErr <- fmt.Errorf("%s: %w", ad.Name(), err)
				return
			}
			adErr <- nil
		}()
	}

	code := exitOK
	running := len(adapters)
	for running > 0 && code == exitOK {
		select {
		case <-ctx.Done():
			running = 0
		case err := <-httpErr:
			fmt.Fprintf(a.stderr, "factbot serve: http: %v\n", err)
			code = exitFailed
		case err := <-adErr:
			running--
			if err != nil {
				fmt.Fprintf(a.stderr, "factbot serve: %v\n", err)
				code = exitFailed
			}
		}
	}
	log.Info("factbot serve: shutting down")
	stop()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	srv.Shutdown(sctx)
	cancel()
	svc.Close() // running checks stay pending and resume on the next start
	return code
}

func envOr(a *app, name, def string) string {
	if v := a.getenv(name); v != "" {
		return v
	}
	return def
}
