package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"syscall"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/listen"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/mcp"
	"github.com/factbot-dev/factbot/store"
)

// mcpTenant is the tenant of checks made over MCP.
const mcpTenant = "mcp"

// mcpListening, if set, is told the HTTP server's address (tests).
var mcpListening func(addr net.Addr)

func runMCP(ctx context.Context, a *app, args []string) error {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	const usage = "factbot mcp [--addr HOST:PORT]\n\nServes the Model Context Protocol: the tools check, history and show, over\nstandard input and output, or with --addr over Streamable HTTP at /mcp, where\nevery request needs Authorization: Bearer $FACTBOT_MCP_TOKEN (without the\ntoken, loopback addresses only). Checks are saved in the tenant mcp.\nSee docs/mcp.md."
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\nFlags:\n", usage)
		fs.PrintDefaults()
	}
	addr := fs.String("addr", "", "serve Streamable HTTP on this address at "+mcp.Path+" instead of stdio, e.g. 127.0.0.1:8090")
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if *addr != "" && len(cfg.MCP.Tokens) == 0 {
		if err := mcp.LoopbackOnly(*addr); err != nil {
			return &usererr.Config{Var: "FACTBOT_MCP_TOKEN", Msg: fmt.Sprintf("not set, and factbot mcp --addr %s would serve anyone who reaches it: %v", *addr, err),
				Hint: "set FACTBOT_MCP_TOKEN (openssl rand -hex 32) for clients to send as a Bearer token, or listen on 127.0.0.1", Err: err}
		}
	}
	checker, err := newChecker(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer startTracing(ctx, cfg, a.stderr)()
	db, err := openData(ctx, a, false)
	if err != nil {
		return err
	}
	defer db.Close()
	useStore(cfg, checker, db)
	log := serveLogger(a)
	useMatching(ctx, cfg, checker, a.stderr)
	probeEmbedder(ctx, checker, log)
	// This process holds the bbolt file: every other command (another
	// factbot mcp too) is handed to it through the admin socket.
	defer serveAdmin(ctx, a, cfg, db, log)()
	srv := mcp.NewServer(mcp.Options{Logger: log, Checks: &mcpChecks{
		run: &checkRunner{cfg: cfg, checker: checker, db: db, tenant: mcpTenant, platform: "mcp", warn: a.stderr, command: "mcp"}, db: db}})
	if *addr == "" {
		return serveMCPStdio(ctx, a, srv)
	}
	return serveMCPHTTP(ctx, cfg, *addr, srv, log)
}

// serveMCPStdio serves one session on standard input and output until the
// client closes its end (or the process is stopped); a line that is not a
// message is answered with an error and the session goes on
// (mcp.StdioTransport). The client has gone
// whichever end factbot finds closed first: the end of its input, or
// output that nobody reads any more (a reply written as the client quits).
func serveMCPStdio(ctx context.Context, a *app, srv *sdk.Server) error {
	err := srv.Run(ctx, mcp.StdioTransport(a.stdin, a.stdout))
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || errors.Is(err, syscall.EPIPE) || ctx.Err() != nil {
		return nil
	}
	return fmt.Errorf("mcp: %w", err)
}

// serveMCPHTTP serves Streamable HTTP on addr at /mcp until ctx is done,
// under the budget of every listener; answers are not bounded in time
// (a check streams its progress for a minute or two, and a session's GET
// is a stream).
func serveMCPHTTP(ctx context.Context, cfg *config.Config, addr string, srv *sdk.Server, log *slog.Logger) error {
	lim := listenLimits(cfg)
	lim.Write = 0
	ln, err := listen.Listen(addr, lim)
	if err != nil {
		return usagef("--addr %s: cannot listen: %v", addr, err)
	}
	mux := http.NewServeMux()
	mux.Handle(mcp.Path, mcp.HTTPHandler(srv, mcp.HTTPOptions{Tokens: cfg.MCP.Tokens, MaxSessions: cfg.MCP.MaxSessions,
		MaxSessionsPerToken: cfg.MCP.MaxSessionsPerToken, SessionIdle: cfg.MCP.SessionIdle, Logger: log}))
	log.Info("factbot mcp: listening", "url", "http://"+ln.Addr().String()+mcp.Path, "tokens", len(cfg.MCP.Tokens), "db", redact(cfg.DB))
	return serveHTTP(ctx, ln.Server(mux, log), ln, mcpListening)
}

// mcpChecks are the MCP tools' checks: factbot check's run and save
// (checkRunner), and its history, in the mcp tenant.
type mcpChecks struct {
	run *checkRunner
	db  backend
}

func (m *mcpChecks) Check(ctx context.Context, req mcp.CheckRequest) (*store.Check, error) {
	user := req.Client
	if user == "" {
		user = "mcp"
	}
	c, err := m.run.run(ctx, user, factcheck.Input{Text: req.Text, Fresh: req.Fresh, Progress: req.Progress})
	if ctx.Err() != nil {
		return nil, ctx.Err() // the caller cancelled: nothing to answer
	}
	if c == nil {
		return nil, toldAs(err)
	}
	// A report whose claims all failed says so in each claim; one that
	// could not be saved (warned about on stderr) has no ID.
	return c, nil
}

func (m *mcpChecks) History(ctx context.Context, q store.HistoryQuery) ([]store.CheckSummary, error) {
	return m.db.History(ctx, mcpTenant, q)
}

func (m *mcpChecks) Get(ctx context.Context, id string) (*store.Check, error) {
	return m.db.Check(ctx, mcpTenant, id)
}

// toldAs keeps a failed model call's one-line explanation (modelFailure),
// meant for whoever runs factbot, as a message the tool may tell.
func toldAs(err error) error {
	var mf *modelFailure
	if _, ok := usererr.Message(err); !ok && errors.As(err, &mf) {
		return &usererr.Error{Msg: mf.msg, Err: err}
	}
	return err
}
