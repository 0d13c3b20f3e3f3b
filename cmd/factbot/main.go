// Command factbot is the fact-checking bot: `factbot serve` runs the Slack
// and Discord adapters, `factbot check` checks text from the terminal, and
// the other subcommands look after history and the database.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
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
}

// command is one subcommand. Each lives in its own file and registers
// itself in init.
type command struct {
	summary string
	run     func(ctx context.Context, a *app, args []string) int
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
	return c.run(ctx, a, args[1:])
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
