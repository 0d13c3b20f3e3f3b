// Command factbot is the fact-checking bot: `factbot serve` runs the Slack
// and Discord adapters, `factbot check` checks text from the terminal, and
// the other subcommands look after history and the database.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/internal/usererr"
)

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1 // the work failed (after retries)
	exitUsage  = 2 // usage or configuration error
)

// app is what a subcommand gets from the process: its streams and its
// environment, so tests can run subcommands in-process.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string

	cfg    *config.Config
	cfgErr error

	// command is the subcommand running (a bbolt file it opens names it
	// as its holder).
	command string
	// dir is the working folder the command's relative paths are in ("":
	// this process's); held is the database this process holds open, when
	// the command was handed over by another factbot's command channel
	// (forward.go).
	dir  string
	held backend
}

// config returns the configuration, loaded from a.getenv on first use.
// This is the one place the program reads its environment.
func (a *app) config() (*config.Config, error) {
	if a.cfg == nil {
		a.cfg, a.cfgErr = config.Load(a.getenv)
	}
	return a.cfg, a.cfgErr
}

// command is one subcommand: its name, the line `factbot help` shows and
// what runs it (each in its own file). run returns nil on success;
// exitStatus maps any error to the exit status and reports it.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, a *app, args []string) error
	// db says the command opens the database: beside a factbot that holds
	// the bbolt file, it runs there (forward.go).
	db bool
}

// commands is every subcommand, in the order `factbot help` lists them. It
// is built when asked for, so that starting the program builds nothing.
func commands() []command {
	return []command{
		{"backup", "copy the database consistently, even while the bot runs: factbot backup FILE", runBackup, true},
		{"check", "check a claim or a paragraph: factbot check [--json] [--fresh] [--no-store] [--quiet] [--user U] [--as-of YYYY-MM-DD [--allow-fact-checks] [--keep-undated]] [--speaker S] [--source S] [--exclude-sites FILE] TEXT… ('-' reads stdin)", runCheck, true},
		{"config", "print the effective configuration, what it enables and what is missing", runConfig, false},
		{"eval", "measure verdict quality on labeled claims: factbot eval [--dataset FILE] [--out RESULTS --resume] [--html FILE] [--exclude-sites FILE]; --compare A B; --fit RESULTS", runEval, false},
		{"export", "export a tenant's checks, or its \"wrong verdict\" feedback as an eval dataset: factbot export [--format jsonl|csv|claimreview] [--feedback] [--tenant T] > file", runExport, true},
		{"forget", "delete what one user asked and what it caused (privacy requests), in every tenant or one, or a whole tenant: factbot forget --user U [--tenant T] | --tenant T", runForget, true},
		{"history", "list past checks, newest first: factbot history [--json] [--user U] [--verdict V] [--search WORDS] …", runHistory, true},
		{"mcp", "serve the tools check, history and show to AI agents over MCP: on stdio, or with --addr HOST:PORT over HTTP at /mcp", runMCP, true},
		{"migrate", "apply the PostgreSQL schema, or copy a bbolt file into PostgreSQL: factbot migrate --from factbot.db --to postgres://…", runMigrate, false},
		{"prune", "remove old checks, finished requests, cached verdicts and web pages: factbot prune --older-than 90d", runPrune, true},
		{"read", "show what the bot reads on a page or PDF: final URL, title, site, date, pages and text", runRead, false},
		{"rotate-key", "re-encrypt the stored workspace tokens with FACTBOT_ENCRYPTION_KEY (the previous key in FACTBOT_ENCRYPTION_KEY_OLD)", runRotateKey, false},
		{"serve", "run the Slack and Discord bots (and /healthz, /readyz, /metrics); without them, see web and mcp", runServe, false},
		{"show", "show one past check in full: factbot show ID [--json] [--tenant T] [--page SHA256]", runShow, true},
		{"version", "print factbot's module version and VCS revision (also factbot --version)", runVersion, false},
		{"web", "serve the web view of checks and history alone, or print a signed link", runWeb, true},
	}
}

// lookup returns the subcommand called name.
func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, a *app, args []string) int {
	if len(args) == 0 {
		usage(a.stderr)
		return exitUsage
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		return runHelp(ctx, a, args[1:])
	case "--version", "-version":
		args = append([]string{"version"}, args[1:]...)
	}
	c, ok := lookup(args[0])
	if !ok {
		fmt.Fprintf(a.stderr, "factbot: unknown command %q\n\n", args[0])
		usage(a.stderr)
		return exitUsage
	}
	if code, ok := forward(ctx, a, c, args); ok {
		return code
	}
	a.command = args[0]
	return exitStatus(a.stderr, args[0], c.run(ctx, a, args[1:]))
}

// runHelp prints the general help on standard output, or with a command's
// name exactly what 'factbot COMMAND --help' prints.
func runHelp(ctx context.Context, a *app, args []string) int {
	switch {
	case len(args) == 0:
		usage(a.stdout)
		return exitOK
	case len(args) > 1:
		fmt.Fprintf(a.stderr, "factbot help: want one command, got %d: factbot help COMMAND\n", len(args))
		return exitUsage
	}
	if _, ok := lookup(args[0]); !ok {
		fmt.Fprintf(a.stderr, "factbot help: unknown command %q\n\n", args[0])
		usage(a.stderr)
		return exitUsage
	}
	return run(ctx, a, []string{args[0], "--help"})
}

// usageError is a mistake on the command line or in the input given: exit
// status 2. An empty msg means it has been reported already (the flag
// package prints its own errors).
type usageError struct {
	msg string
	err error // optional cause
}

func (e *usageError) Error() string {
	if e.msg == "" && e.err != nil {
		return e.err.Error()
	}
	return e.msg
}

func (e *usageError) Unwrap() error { return e.err }

// usagef makes a *usageError.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// exitStatus is the one mapping from a subcommand's error to the exit
// status: 0 for none (or after -h), 2 for a usage or configuration error,
// 1 for anything else. It reports err on w: user-facing messages
// (usererr) as they are written, any other error with its whole chain.
func exitStatus(w io.Writer, name string, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	prefix := "factbot " + name + ": "
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		if ue.msg != "" {
			fmt.Fprintf(w, "%s%s\n", prefix, ue.msg)
		}
		return exitUsage
	case usererr.IsConfig(err):
		ces := configErrors(err)
		if len(ces) == 0 { // wrapped in a way configErrors does not follow
			msg, _ := usererr.Message(err)
			fmt.Fprintf(w, "%s%s\n", prefix, msg)
		}
		for _, ce := range ces {
			fmt.Fprintf(w, "%s%s\n", prefix, ce)
		}
		return exitUsage
	}
	if msg, ok := usererr.Message(err); ok {
		fmt.Fprintf(w, "%s%s\n", prefix, msg)
	} else {
		fmt.Fprintf(w, "%s%v\n", prefix, err)
	}
	return exitFailed
}

// configErrors returns the configuration errors err is, wraps or joins.
func configErrors(err error) []*usererr.Config {
	var ce *usererr.Config
	if errors.As(err, &ce) && ce == err {
		return []*usererr.Config{ce}
	}
	var out []*usererr.Config
	switch u := err.(type) {
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			out = append(out, configErrors(e)...)
		}
	case interface{ Unwrap() error }:
		out = configErrors(u.Unwrap())
	}
	return out
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "factbot: a fact-checking bot for Slack and Discord.\n\nUsage: factbot COMMAND [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'factbot help COMMAND' (or 'factbot COMMAND --help') for a command's flags.")
}
