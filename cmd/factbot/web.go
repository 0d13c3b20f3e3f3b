package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/internal/listen"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web"
)

// webListening, if set, is told the web server's address (tests).
var webListening func(addr net.Addr)

// webErr says what the web view lacks, or nil when it is on.
func webErr(cfg *config.Config) error {
	const hint = "the web view needs FACTBOT_PUBLIC_URL (the https:// address people open) and FACTBOT_WEB_SECRET (openssl rand -hex 32)"
	switch {
	case cfg.Web.PublicURL == "":
		return &usererr.Config{Var: "FACTBOT_PUBLIC_URL", Msg: "not set", Hint: hint}
	case cfg.Web.Secret == "":
		return &usererr.Config{Var: "FACTBOT_WEB_SECRET", Msg: "not set", Hint: hint}
	}
	return nil
}

// webLinks makes the signed links to the web view; nil when it is off.
func webLinks(cfg *config.Config) *web.Links {
	if !cfg.Web.Enabled() {
		return nil
	}
	return web.NewLinks(cfg.Web.PublicURL, cfg.Web.Secret, cfg.Web.CheckTTL, cfg.Web.HistoryTTL, nil)
}

// warnPlainURL warns, at start, when FACTBOT_PUBLIC_URL is http://: the
// signed links' tokens (and Slack's install codes) would travel in clear.
func warnPlainURL(cfg *config.Config, log *slog.Logger) {
	if strings.HasPrefix(strings.ToLower(cfg.Web.PublicURL), "http://") {
		log.Warn("FACTBOT_PUBLIC_URL is http://: the web view's links and their tokens (and Slack's install codes) travel in clear; serve it behind a TLS proxy and set its https:// address",
			"url", cfg.Web.PublicURL)
	}
}

// mountWeb adds the web view under /web/ to mux when it is configured.
func mountWeb(cfg *config.Config, db web.Store, mux *http.ServeMux, log *slog.Logger) {
	if !cfg.Web.Enabled() {
		return
	}
	mux.Handle("/web/", web.New(web.Options{Store: db, Secret: cfg.Web.Secret, AdminToken: cfg.Web.AdminToken, Logger: log,
		PublicURL: cfg.Web.PublicURL, Organization: cfg.Web.Organization}))
	log.Info("web view: enabled", "url", cfg.Web.PublicURL+"/web/", "operators", cfg.Web.AdminToken != "")
}

// printCheckLink prints a signed link to check id of tenant, made for viewer
// or, when viewer is empty, for the check's asker (as a chat report's Full
// report button is), once the web view's own code has opened it.
func printCheckLink(ctx context.Context, a *app, cfg *config.Config, db backend, tenant, id, viewer string) error {
	c, err := db.Check(ctx, tenant, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return usagef("no check %s in tenant %s (factbot history lists them)", id, tenant)
		}
		return err
	}
	if viewer == "" {
		viewer = c.User
	}
	return printLink(ctx, a, cfg, db, webLinks(cfg).CheckURL(tenant, viewer, id))
}

// printLink opens link through the web view's handler, as it will be served,
// and prints it only if it opens.
func printLink(ctx context.Context, a *app, cfg *config.Config, db backend, link string) error {
	srv := web.New(web.Options{Store: db, Secret: cfg.Web.Secret})
	if err := srv.VerifyLink(ctx, link); err != nil {
		return usagef("no link printed: %v (a --viewer who may see it?)", err)
	}
	fmt.Fprintln(a.stdout, link)
	return nil
}

func runWeb(ctx context.Context, a *app, args []string) error {
	fs, tenant := newStoreFlags(a, "web", "factbot web [--addr A] [--tenant T] [--link ID | --history] [--viewer U]\n\nServes the web view (under /web/) of the database alone, for a database used\nfrom the terminal; factbot serve serves it too, beside the bots. With --link or\n--history it prints a signed link instead and exits.")
	addr := fs.String("addr", "", "HTTP address (default FACTBOT_HTTP_ADDR, else "+config.DefaultHTTPAddr+")")
	link := fs.String("link", "", "print a signed link to the check with this id and exit")
	history := fs.Bool("history", false, "print a signed link to the tenant's history and exit")
	viewer := fs.String("viewer", "", "whom a printed link is for, who sees what they may see: their private checks show (default: for --link the check's asker, for --history USER or the system's name for you)")
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if err := webErr(cfg); err != nil {
		return err
	}
	if *link != "" && *history {
		return usagef("--link and --history: choose one")
	}
	db, err := openData(ctx, a, true)
	if err != nil {
		return err
	}
	defer db.Close()
	switch {
	case *link != "":
		return printCheckLink(ctx, a, cfg, db, *tenant, *link, *viewer)
	case *history:
		if *viewer == "" {
			*viewer = cliUser(cfg)
		}
		return printLink(ctx, a, cfg, db, webLinks(cfg).HistoryURL(*tenant, *viewer, ""))
	}
	if *addr == "" {
		*addr = cfg.HTTPAddr
	}
	log := serveLogger(a)
	warnPlainURL(cfg, log)
	defer serveAdmin(ctx, a, cfg, db, log)()
	mux := http.NewServeMux()
	mountWeb(cfg, db, mux, log)
	ln, err := listen.Listen(*addr, listenLimits(cfg))
	if err != nil {
		return &usererr.Config{Var: "FACTBOT_HTTP_ADDR", Msg: fmt.Sprintf("cannot listen on %s: %v", *addr, err), Hint: "a free host:port, also settable with --addr", Err: err}
	}
	log.Info("factbot web: listening", "addr", ln.Addr().String(), "db", redact(cfg.DB))
	return serveHTTP(ctx, ln.Server(mux, log), ln, webListening)
}

// serveHTTP serves srv on ln (under the budget of every listener) until
// ctx is done (then shuts it down, waiting up to 5 seconds for requests in
// flight) or the server fails. listening, if set, is told the address first
// (tests).
func serveHTTP(ctx context.Context, srv *http.Server, ln *listen.Listener, listening func(net.Addr)) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if listening != nil {
		listening(ln.Addr())
	}
	select {
	case <-ctx.Done():
	case err := <-errc:
		return fmt.Errorf("http: %w", err)
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Shutdown(sctx)
	return nil
}
