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
	"sort"
	"syscall"

	"github.com/factbot-dev/factbot/internal/config"
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
}

// config returns the configuration, loaded from a.getenv on first use.
// This is the one place the program reads its environment.
func (a *app) config() (*config.Config, error) {
	if a.cfg == nil {
		a.cfg, a.cfgErr = config.Load(a.getenv)
	}
	return a.cfg, a.cfgErr
}

// command is one subcommand. Each lives in its own file and registers
// itself in init. run returns nil on success; exitStatus maps any error
// to the exit status and reports it.
type command struct {
	summary string
	run     func(ctx context.Context, a *app, args []string) error
}

var commands = map[string]command{}

func register(name string, c command) {
	if _, dup := commands[name]; dup {
		panic("factbot: duplicate command " + name)
	}
	commands[name] = c
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, a *app, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(a.stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(a.stderr, "factbot: unknown command %q\n\n", args[0])
		usage(a.stderr)
		return exitUsage
	}
	return exitStatus(a.stderr, args[0], c.run(ctx, a, args[1:]))
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
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'factbot COMMAND -h' for a command's flags.")
}
