package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/discord"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/internal/listen"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

// chatAdapter is one chat platform run by serve: the core's Platform, plus
// Run, which connects (Socket Mode, gateway) and blocks until ctx ends.
type chatAdapter interface {
	bot.Platform
	Run(ctx context.Context) error
	// Ready is nil while the adapter is connected (/readyz).
	Ready() error
}

// Seams for tests.
var (
	// serveChecker builds the engine; tests replace it with a fake.
	serveChecker = func(ctx context.Context, cfg *config.Config, db backend) (bot.Checker, error) {
		c, err := newChecker(ctx, cfg, db)
		if err != nil {
			return nil, err
		}
		useMatching(ctx, cfg, c, os.Stderr)
		probeEmbedder(ctx, c, slog.Default())
		return c, nil
	}
	// serveListening, if set, is told the HTTP server's address.
	serveListening func(addr net.Addr)
	// serveMetricsListening, if set, is told the metrics listener's address
	// (FACTBOT_METRICS_ADDR).
	serveMetricsListening func(addr net.Addr)
	// httpTimeouts are every listener's timeouts; tests shorten them.
	httpTimeouts = listen.Timeouts
)

// listenLimits are the bounds of every listener factbot opens (serve,
// web --addr, mcp --addr): httpTimeouts, and FACTBOT_MAX_CONNS and
// FACTBOT_MAX_CONNS_PER_IP.
func listenLimits(cfg *config.Config) listen.Limits {
	l := httpTimeouts
	l.MaxConns, l.MaxConnsPerIP = cfg.MaxConns, cfg.MaxConnsPerIP
	return l
}

// withoutMetrics answers 404 for /metrics, served on its own listener.
func withoutMetrics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/metrics" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// The adapters' wiring: the only place serve calls their constructors.

// buildAdapters makes the adapter of every configured platform, adding
// their HTTP routes to mux.
func buildAdapters(cfg *config.Config, db backend, svc *bot.Service, mux *http.ServeMux, log *slog.Logger) ([]chatAdapter, error) {
	var ads []chatAdapter
	if cfg.Slack.Configured() {
		ad, err := buildSlack(cfg, db, svc, mux, log)
		if err != nil {
			return nil, fmt.Errorf("slack: %w", err)
		}
		ads = append(ads, ad)
	}
	if cfg.Discord.Configured() {
		ad, err := buildDiscord(cfg.Discord, svc, mux, log)
		if err != nil {
			return nil, fmt.Errorf("discord: %w", err)
		}
		ads = append(ads, ad)
	}
	return ads, nil
}

// buildSlack makes the Slack adapter and adds its HTTP-mode routes to mux.
// With an OAuth client it serves every workspace installed in db, their
// tokens sealed with FACTBOT_ENCRYPTION_KEY.
func buildSlack(cfg *config.Config, st backend, svc bot.Core, mux *http.ServeMux, log *slog.Logger) (*slack.Adapter, error) {
	sc := cfg.Slack
	scfg := slack.Config{BotToken: sc.BotToken, AppToken: sc.AppToken, SigningSecret: sc.SigningSecret, APIURL: sc.APIURL, Logger: log,
		Reactions: sc.Reactions}
	scfg.SharedPace, _ = st.(bot.RateStore) // PostgreSQL: the replicas share each channel's pace
	db := st
	if sc.OAuth() {
		var old [][]byte
		if cfg.EncryptionKeyOld != nil {
			old = append(old, cfg.EncryptionKeyOld) // records not yet rotated still open
		}
		kr, err := keyring.New(cfg.EncryptionKey, old...)
		if err != nil {
			return nil, &usererr.Config{Var: "FACTBOT_ENCRYPTION_KEY", Msg: err.Error(), Err: err}
		}
		scfg.ClientID, scfg.ClientSecret, scfg.PublicURL, scfg.Installs = sc.ClientID, sc.ClientSecret, cfg.Web.PublicURL, db.Installations(kr)
		scfg.UsedStates, _ = st.(slack.UsedStates) // each install state accepted once, by every replica
		if bad, err := db.Installations(kr).Unopened(context.Background()); err == nil && len(bad) > 0 {
			log.Error("slack: installations whose tokens FACTBOT_ENCRYPTION_KEY cannot open; their workspaces are not answered",
				"installations", bad, "hint", "set FACTBOT_ENCRYPTION_KEY_OLD to the key they were stored with and run factbot rotate-key, or have them install the app again")
		}
	}
	ad, err := slack.New(scfg, svc)
	if err != nil {
		return nil, err
	}
	ad.Routes(mux)
	mode := "socket mode"
	if sc.AppToken == "" {
		mode = "HTTP mode (POST /slack/events, /slack/commands, /slack/interactions)"
	} else if sc.SigningSecret != "" {
		mode = "socket mode and HTTP mode"
	}
	if sc.OAuth() {
		n, _ := db.Installations(nil).Count(context.Background(), slack.Name)
		log.Info("slack: enabled, multi-workspace (OAuth)", "mode", mode, "workspaces", n,
			"install", cfg.Web.PublicURL+slack.InstallPath, "redirect_url", cfg.Web.PublicURL+slack.CallbackPath,
			"key_id", keyring.KeyID(cfg.EncryptionKey))
		return ad, nil
	}
	log.Info("slack: enabled", "mode", mode)
	return ad, nil
}

// buildDiscord makes the Discord adapter and, with a public key, adds the
// HTTP interactions route to mux. The gateway connects when serve calls
// Run.
func buildDiscord(dc config.Discord, svc bot.Core, mux *http.ServeMux, log *slog.Logger) (*discord.Adapter, error) {
	ad, err := discord.New(discord.Config{Token: dc.Token, AppID: dc.AppID, PublicKey: dc.PublicKey, GuildID: dc.GuildID, ShardID: dc.Shard, ShardCount: dc.Shards, NoGateway: dc.NoGateway, APIURL: dc.APIURL, Logger: log,
		MessageContent: dc.MessageContent, Reactions: dc.Reactions}, svc)
	if err != nil {
		return nil, err
	}
	if ad.Routes(mux) {
		log.Info("discord: HTTP interactions enabled", "path", discord.InteractionsPath)
	}
	return ad, nil
}

// maintain runs what looks after the database while serve holds it: for
// a bbolt file, the admin socket next to the file, through which 'factbot backup', 'prune'
// and 'forget' reach a running bot, and pruning every hour by
// FACTBOT_RETENTION. The returned function stops both.
func maintain(ctx context.Context, a *app, cfg *config.Config, db backend, log *slog.Logger) func() {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.PruneEvery(ctx, time.Hour, cfg.Retention, func(st store.PruneStats, err error) {
			if err != nil {
				log.Error("prune", "err", err)
				return
			}
			log.Info("pruned", "retention", config.FormatDuration(cfg.Retention), "checks", st.Checks, "requests", st.Requests, "web", st.Web)
		})
	}()
	if _, ok := db.(*boltFile); !ok {
		// PostgreSQL: every replica and the CLI open the database itself;
		// there is no admin socket.
		log.Info("store: PostgreSQL, shared by replicas; prune and forget open it directly, back it up with pg_dump",
			"db", redact(cfg.DB), "lease", config.FormatDuration(cfg.Lease))
	}
	// A bbolt file: the other commands are handed to this process through
	// its admin socket (forward.go).
	stopAdmin := serveAdmin(ctx, a, cfg, db, log)
	return func() {
		cancel()
		stopAdmin()
		<-done
	}
}

func serveLogger(a *app) *slog.Logger {
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// serveFlags are serve's flags; addr and limit, when not given, are the
// configuration's.
type serveFlags struct {
	addr, limit string
	workers     int
}

// noChatHint is what serve says, started without a chat platform (its
// help says the same).
const noChatHint = "without a chat platform, 'factbot web' serves the web view alone and 'factbot mcp' serves the tools check, history and show to AI agents over MCP"

func parseServeFlags(a *app, args []string) (*serveFlags, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	f := &serveFlags{}
	fs.StringVar(&f.addr, "addr", "", "HTTP address for /healthz, /readyz, /metrics and HTTP-mode webhooks (default FACTBOT_HTTP_ADDR, else "+config.DefaultHTTPAddr+")")
	fs.StringVar(&f.limit, "user-limit", "", "checks per user per window, e.g. 10/10m; off disables (default FACTBOT_USER_LIMIT, else "+config.DefaultUserLimit+")")
	fs.IntVar(&f.workers, "workers", 8, "checks run at once")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: factbot serve [flags]\n\nRuns the chat bots configured in the environment: Slack (SLACK_BOT_TOKEN, or\nSLACK_CLIENT_ID and SLACK_CLIENT_SECRET for every workspace that installs it,\nwith SLACK_APP_TOKEN or SLACK_SIGNING_SECRET) and Discord (DISCORD_BOT_TOKEN),\nwith the web view under /web/ when FACTBOT_PUBLIC_URL and FACTBOT_WEB_SECRET are\nset.\n\nWithout a chat platform, 'factbot web' serves the web view alone and\n'factbot mcp' serves the tools check, history and show to AI agents over MCP.\n\nFlags:")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(a, fs, args)
	if err != nil {
		return nil, err
	}
	if len(pos) > 0 {
		return nil, usagef("unexpected argument %q", pos[0])
	}
	return f, nil
}

// serveConfig loads the configuration, applies the flags to it and checks
// that a chat platform is configured.
func serveConfig(a *app, f *serveFlags) (*config.Config, error) {
	cfg, err := a.config()
	if err != nil {
		return nil, err
	}
	if err := cfg.ChatErr(); err != nil {
		var ce *usererr.Config
		if !cfg.Slack.Configured() && !cfg.Discord.Configured() && errors.As(err, &ce) {
			told := *ce
			told.Hint += "; " + noChatHint
			return nil, &told
		}
		return nil, err
	}
	c := *cfg
	if f.addr != "" {
		c.HTTPAddr = f.addr
	}
	if f.limit != "" {
		if c.UserLimit, err = bot.ParseLimit(f.limit); err != nil {
			return nil, usagef("-user-limit: %v", err)
		}
	}
	return &c, nil
}

func runServe(ctx context.Context, a *app, args []string) error {
	f, err := parseServeFlags(a, args)
	if err != nil {
		return err
	}
	cfg, err := serveConfig(a, f)
	if err != nil {
		return err
	}
	log := serveLogger(a)
	warnPlainURL(cfg, log)
	defer startTracing(ctx, cfg, a.stderr)()
	db, err := openBackend(ctx, a, cfg)
	if err != nil {
		return err
	}
	defer db.Close()
	stopMaintenance := maintain(ctx, a, cfg, db, log)
	defer stopMaintenance()
	ck, err := serveChecker(ctx, cfg, db)
	if err != nil {
		return err
	}
	reg := bot.NewRegistry()
	// /readyz: the database answers a cheap question, every platform is connected.
	ready := &readiness{ping: func(ctx context.Context) error { _, err := db.Tenants(ctx); return err }, now: time.Now, log: log}
	svc := bot.New(db, ck, bot.Options{
		Workers: f.workers, UserLimit: cfg.UserLimit, NoUserLimit: cfg.UserLimit == (bot.Limit{}),
		TenantLimit: cfg.TenantLimit, NoTenantLimit: cfg.TenantLimit == (bot.Limit{}), MaxQueue: cfg.MaxQueue,
		Metrics: bot.NewMetrics(reg), Logger: log, Links: chatLinks(cfg), Owner: replicaOwner(), Lease: cfg.Lease,
	})
	mux := bot.NewMux(reg, ready.check)
	mountWeb(cfg, db, mux, log)
	adapters, err := buildAdapters(cfg, db, svc, mux, log)
	if err != nil {
		return err
	}
	for _, ad := range adapters {
		svc.Register(ad)
		ready.platforms = append(ready.platforms, ad)
	}
	pub, metrics, err := listenHTTP(cfg, mux, bot.NewMux(reg, ready.check))
	if err != nil {
		return err
	}
	if err := svc.Start(ctx); err != nil {
		pub.ln.Close()
		if metrics != nil {
			metrics.ln.Close()
		}
		return err
	}
	defer svc.Close() // running checks stay pending and resume on the next start
	return serveUntilDone(ctx, pub, metrics, adapters, log)
}

// listenHTTP opens serve's public listener (mux) and, with
// FACTBOT_METRICS_ADDR, the metrics listener (metricsMux), each under the
// budget of every listener (listen.Listener: FACTBOT_MAX_CONNS connections,
// half of them at most waiting for a request's headers, and
// FACTBOT_MAX_CONNS_PER_IP from one address).
func listenHTTP(cfg *config.Config, mux, metricsMux http.Handler) (pub, metrics *listener, err error) {
	ln, err := listen.Listen(cfg.HTTPAddr, listenLimits(cfg))
	if err != nil {
		return nil, nil, &usererr.Config{Var: "FACTBOT_HTTP_ADDR", Msg: fmt.Sprintf("cannot listen on %s: %v", cfg.HTTPAddr, err), Hint: "a free host:port, also settable with -addr", Err: err}
	}
	pub = &listener{ln: ln, h: mux}
	if cfg.MetricsAddr == "" {
		return pub, nil, nil
	}
	mln, err := listen.Listen(cfg.MetricsAddr, listenLimits(cfg))
	if err != nil {
		ln.Close()
		return nil, nil, &usererr.Config{Var: "FACTBOT_METRICS_ADDR", Msg: fmt.Sprintf("cannot listen on %s: %v", cfg.MetricsAddr, err), Hint: "a free host:port, e.g. 127.0.0.1:9090, or unset to serve /metrics on FACTBOT_HTTP_ADDR", Err: err}
	}
	pub.h = withoutMetrics(mux)
	return pub, &listener{ln: mln, h: metricsMux}, nil
}

// replicaOwner names this process to the requests' leases: the host, the
// process id and a random suffix, unique among replicas sharing a
// PostgreSQL database and readable in their logs.
func replicaOwner() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	rand.Read(b)
	return fmt.Sprintf("%s/%d/%s", host, os.Getpid(), hex.EncodeToString(b))
}

// listener is one HTTP listener of serve and its handler.
type listener struct {
	ln *listen.Listener
	h  http.Handler
}

// server is l's HTTP server.
func (l *listener) server(log *slog.Logger) *http.Server {
	return l.ln.Server(l.h, log)
}

// serveUntilDone serves HTTP on pub (and metrics, if not nil) and runs the
// adapters until ctx ends (nil) or an HTTP server or an adapter fails (its
// error).
func serveUntilDone(ctx context.Context, pub, metrics *listener, adapters []chatAdapter, log *slog.Logger) error {
	srv := pub.server(log)
	httpErr := make(chan error, 2)
	go func() { httpErr <- srv.Serve(pub.ln) }()
	log.Info("factbot serve: listening", "addr", pub.ln.Addr().String())
	if serveListening != nil {
		serveListening(pub.ln.Addr())
	}
	var msrv *http.Server
	if metrics != nil {
		msrv = metrics.server(log)
		go func() { httpErr <- msrv.Serve(metrics.ln) }()
		log.Info("factbot serve: metrics listening", "addr", metrics.ln.Addr().String())
		if serveMetricsListening != nil {
			serveMetricsListening(metrics.ln.Addr())
		}
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
	var err error
	for running := len(adapters); running > 0 && err == nil; {
		select {
		case <-ctx.Done():
			running = 0
		case e := <-httpErr:
			err = fmt.Errorf("http: %w", e)
		case err = <-adErr:
			running--
		}
	}
	log.Info("factbot serve: shutting down")
	stop()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	srv.Shutdown(sctx)
	if msrv != nil {
		msrv.Shutdown(sctx)
	}
	cancel()
	return err
}

// chatLinks is what makes the "Full report" and "Open history" links of
// chat answers: the web view's signed links, or a nil interface when the
// view is off (never a nil *web.Links inside a non-nil bot.Links).
func chatLinks(cfg *config.Config) bot.Links {
	if l := webLinks(cfg); l != nil {
		return l
	}
	return nil
}
