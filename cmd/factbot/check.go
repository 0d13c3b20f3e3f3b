package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
)

func init() {
	register("check", command{
		summary: "check a claim or a paragraph: factbot check [--json] [--fresh] TEXT… ('-' reads stdin)",
		run:     runCheck,
	})
}

// maxStdin bounds what `check -` reads; the engine's own input limit then
// gives the clear message.
const maxStdin = 1 << 20

// parseInterspersed parses flags wherever they appear among the arguments,
// so `factbot check "a claim" --json` works as well as the other order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseArgs is parseInterspersed for a command: it returns the positional
// arguments, or false and the exit status when the command should stop
// (0 after -h, 2 after a bad flag, which fs has already reported).
func parseArgs(fs *flag.FlagSet, args []string) (pos []string, code int, ok bool) {
	pos, err := parseInterspersed(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		return nil, exitOK, false
	}
	if err != nil {
		return nil, exitUsage, false
	}
	return pos, 0, true
}

func runCheck(ctx context.Context, a *app, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	jsonOut := fs.Bool("json", false, "print the whole report as one JSON object on stdout")
	fresh := fs.Bool("fresh", false, "ignore cached verdicts and check again")
	noStore := fs.Bool("no-store", false, "use no database: no cache and no history")
	quiet := fs.Bool("quiet", false, "print no progress on stderr")
	user := fs.String("user", os.Getenv("USER"), "who is asking, as recorded in history")
	fs.Usage = func() {
		fmt.Fprintln(a.stderr, "Usage: factbot check [flags] TEXT…\n\nChecks one claim or every claim in a paragraph. TEXT '-' reads standard input.\nNeeds GEMINI_API_KEY (https://aistudio.google.com/apikey); see the README for search keys.\n\nFlags:")
		fs.PrintDefaults()
	}
	pos, code, ok := parseArgs(fs, args)
	if !ok {
		return code
	}
	text := strings.Join(pos, " ")
	if text == "-" {
		b, err := io.ReadAll(io.LimitReader(a.stdin, maxStdin))
		if err != nil {
			fmt.Fprintf(a.stderr, "factbot: reading standard input: %v\n", err)
			return exitFailed
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		fmt.Fprintln(a.stderr, "factbot: nothing to check: give the claim as arguments, e.g. factbot check \"The Great Wall of China is visible from space\"")
		return exitUsage
	}

	// Configuration errors first: a missing key is reported before any file
	// is created.
	checker, err := newChecker(ctx, a, nil)
	if err != nil {
		fmt.Fprintf(a.stderr, "factbot: %v\n", err)
		return exitUsage
	}
	var db *store.DB
	if !*noStore {
		db, err = openStore(a)
		if err != nil {
			fmt.Fprintf(a.stderr, "factbot: %v\n", err)
			return exitUsage
		}
		defer db.Close()
		useStore(a, checker, db)
	}
	in := factcheck.Input{Tenant: cliTenant, Text: text, Fresh: *fresh}
	if !*quiet {
		in.Progress = progressPrinter(a.stderr)
	}
	rep, err := checker.Check(ctx, in)
	if err != nil {
		var ce *usererr.Config
		if errors.As(err, &ce) {
			fmt.Fprintf(a.stderr, "factbot: %v\n", ce)
			return exitUsage
		}
		if msg, ok := usererr.Message(err); ok && rep == nil {
			fmt.Fprintf(a.stderr, "factbot: %s\n", msg)
			return exitUsage
		}
		if rep == nil {
			fmt.Fprintf(a.stderr, "factbot: the check failed: %v\n", err)
			return exitFailed
		}
	}
	var id string
	if db != nil {
		c := &store.Check{Tenant: cliTenant, Platform: "cli", User: *user, Text: text, Report: rep}
		if serr := db.SaveCheck(ctx, c); serr != nil {
			fmt.Fprintf(a.stderr, "factbot: warning: the check was not saved to history: %v\n", serr)
		} else {
			id = c.ID
		}
	}
	if *jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		out := struct {
			ID string `json:"id,omitempty"`
			*factcheck.Report
		}{id, rep}
		if err := enc.Encode(out); err != nil {
			return exitFailed
		}
	} else {
		writeReport(a.stdout, rep, id)
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "factbot: the check failed: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// progressPrinter writes progress events to w as they happen.
func progressPrinter(w io.Writer) func(factcheck.Event) {
	return func(e factcheck.Event) {
		tag := "  "
		if e.Claim >= 0 {
			tag = fmt.Sprintf("[%d]", e.Claim+1)
		}
		switch e.Kind {
		case factcheck.EventClaims:
			fmt.Fprintf(w, "found %d claim(s) to check\n", len(e.Claims))
			for i, c := range e.Claims {
				fmt.Fprintf(w, "[%d] %s\n", i+1, termText(c.Claim))
			}
		case factcheck.EventSearch:
			fmt.Fprintf(w, "%s searching: %s\n", tag, termText(e.Text))
		case factcheck.EventRead:
			fmt.Fprintf(w, "%s reading: %s\n", tag, termText(e.Text))
		case factcheck.EventVerdict:
			v := e.Verdict
			cached := ""
			if v.Cached {
				cached = " (cached)"
			}
			fmt.Fprintf(w, "%s %s, %s confidence%s\n", tag, v.Verdict, v.Confidence, cached)
		case factcheck.EventNote:
			fmt.Fprintf(w, "%s %s\n", tag, termText(e.Text))
		}
	}
}
