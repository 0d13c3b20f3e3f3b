package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

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
// arguments, or flag.ErrHelp after -h and a *usageError after a bad flag,
// which fs has already reported. The help asked for with -h or --help
// goes to standard output; a bad flag's message and the usage after it
// to standard error. Every command's fs.Usage writes to fs.Output().
func parseArgs(a *app, fs *flag.FlagSet, args []string) ([]string, error) {
	var out bytes.Buffer
	fs.SetOutput(&out)
	pos, err := parseInterspersed(fs, args)
	fs.SetOutput(a.stderr)
	if errors.Is(err, flag.ErrHelp) {
		a.stdout.Write(out.Bytes())
		return nil, err
	}
	a.stderr.Write(out.Bytes())
	if err != nil {
		return nil, &usageError{err: err}
	}
	return pos, nil
}

// checkFlags are the flags of factbot check.
type checkFlags struct {
	json, fresh, noStore, quiet  bool
	user                         string
	asOf, speaker, source        string
	excludeSites                 string
	allowFactChecks, keepUndated bool
}

// restrict makes a check as of a date leak-free, unless
// --allow-fact-checks, and keeps its undated sources with --keep-undated.
func (f *checkFlags) restrict(c *factcheck.Checker, asOf time.Time) {
	if !asOf.IsZero() && !f.allowFactChecks {
		c.ExcludeSites, c.ExcludeFactCheckPaths = leakFreeSites(c.ExcludeSites), true
		c.FactChecks = nil
	}
	c.KeepUndated = f.keepUndated
}

// parseAsOf reads --as-of: a day, YYYY-MM-DD.
func parseAsOf(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, usagef("--as-of %q is not a date: give it as YYYY-MM-DD, e.g. --as-of 2024-03-01", s)
	}
	return t, nil
}

// readExcludeSites reads an --exclude-sites file; it replaces
// FACTBOT_EXCLUDE_SITES for the run.
func readExcludeSites(path string) ([]string, error) {
	sites, err := search.ReadSitesFile(path)
	if err != nil {
		return nil, &usageError{msg: "--exclude-sites: " + err.Error(), err: err}
	}
	return sites, nil
}

// checkFlagSet defines check's flags into f; help's summary of check names
// every one (TestHelpListsEveryCheckFlag).
func checkFlagSet(f *checkFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.BoolVar(&f.json, "json", false, "print the whole report as one JSON object on stdout")
	fs.BoolVar(&f.fresh, "fresh", false, "ignore cached verdicts and earlier checks of the same claim, and check again")
	fs.BoolVar(&f.noStore, "no-store", false, "use no database: no cache and no history")
	fs.BoolVar(&f.quiet, "quiet", false, "print no progress on stderr")
	fs.StringVar(&f.user, "user", "", "who is asking, as recorded in history (default $USER, else the system's name for you)")
	fs.StringVar(&f.asOf, "as-of", "", "check as of this day (YYYY-MM-DD): only results and pages published by then, and it is \"today\" for the model")
	fs.StringVar(&f.speaker, "speaker", "", "who made the claim, given to the model as context")
	fs.StringVar(&f.source, "source", "", "where the claim appeared, given to the model as context")
	fs.StringVar(&f.excludeSites, "exclude-sites", "", "a file of domains (one a line, # comments) kept out of every search result and page read (default $FACTBOT_EXCLUDE_SITES)")
	fs.BoolVar(&f.allowFactChecks, "allow-fact-checks", false, "with --as-of: do not keep fact-checking sites, fact-check sections and their mirrors out (a check as of a date is leak-free by default)")
	fs.BoolVar(&f.keepUndated, "keep-undated", false, "with --as-of: keep search results and pages whose publication date is unknown (dropped by default)")
	return fs
}

func runCheck(ctx context.Context, a *app, args []string) error {
	var f checkFlags
	fs := checkFlagSet(&f)
	fs.SetOutput(a.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: factbot check [flags] TEXT…\n\nChecks one claim or every claim in a paragraph. TEXT '-' reads standard input.\nNeeds GEMINI_API_KEY (https://aistudio.google.com/apikey); see docs/configuration-guide.md for search keys.\n\nFlags:")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(a, fs, args)
	if err != nil {
		return err
	}
	text, err := checkText(a, pos)
	if err != nil {
		return err
	}
	asOf, err := parseAsOf(f.asOf)
	if err != nil {
		return err
	}
	var exclude []string
	if f.excludeSites != "" {
		if exclude, err = readExcludeSites(a.path(f.excludeSites)); err != nil {
			return err
		}
	}
	// Configuration errors first: a missing key is reported before any file
	// is created.
	cfg, err := a.config()
	if err != nil {
		return err
	}
	if f.user == "" {
		f.user = cliUser(cfg)
	}
	checker, err := newChecker(ctx, cfg, nil)
	if err != nil {
		return err
	}
	defer startTracing(ctx, cfg, a.stderr)()
	if f.excludeSites != "" {
		checker.ExcludeSites = exclude
	}
	f.restrict(checker, asOf)
	runner := &checkRunner{cfg: cfg, checker: checker, tenant: cliTenant, platform: "cli", warn: a.stderr, command: "check"}
	if !f.noStore {
		if runner.db, err = openData(ctx, a, false); err != nil {
			return err
		}
		defer runner.db.Close()
		useStore(cfg, checker, runner.db)
		useMatching(ctx, cfg, checker, a.stderr)
	}
	in := factcheck.Input{Text: text, Fresh: f.fresh, AsOf: asOf, Speaker: f.speaker, Source: f.source}
	if !f.quiet {
		in.Progress = progressPrinter(a.stderr)
	}
	c, err := runner.run(ctx, f.user, in)
	if c == nil {
		return err
	}
	if werr := writeCheckOutput(a, c.Report, c.ID, f.json); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("the check failed: %w", err)
	}
	return nil
}

// checkRunner runs a check and keeps it in history: the one path of
// factbot check and of factbot mcp's check tool, each in its tenant.
type checkRunner struct {
	cfg     *config.Config
	checker *factcheck.Checker
	// db keeps the checks; nil keeps none (--no-store).
	db               backend
	tenant, platform string
	// warn is told, as the command (check, mcp), when a check could not
	// be saved.
	warn    io.Writer
	command string
}

// run checks in for user and saves the check. It returns nil and the
// error (checkFailed's) when the check produced no report; otherwise the
// check, saved unless there is no database or saving failed (then its ID
// is empty), and the engine's error when every claim failed.
func (r *checkRunner) run(ctx context.Context, user string, in factcheck.Input) (*store.Check, error) {
	in.Tenant = r.tenant
	// The cache records the check used are kept with it, as the chat
	// core keeps them, so forgetting the user forgets what they caused.
	rec := store.NewCacheRecorder()
	in.Recorder = rec
	if r.db != nil {
		in.Earlier = earlierIn(r.db, r.tenant)
	}
	rep, err := r.checker.Check(ctx, in)
	err = explainModelFailure(r.cfg, err)
	if rep == nil || usererr.IsConfig(err) {
		return nil, checkFailed(err)
	}
	c := &store.Check{Tenant: r.tenant, Platform: r.platform, User: user, Text: in.Text, Report: rep,
		Speaker: strings.TrimSpace(in.Speaker), ClaimDate: in.AsOf, CacheRefs: rec.Refs()}
	if r.db != nil {
		if serr := r.db.SaveCheck(ctx, c); serr != nil {
			fmt.Fprintf(r.warn, "factbot %s: warning: the check was not saved to history: %v\n", r.command, serr)
			c.ID = ""
		}
	}
	return c, err
}

// checkText returns the text to check: the arguments, or standard input
// for "-".
func checkText(a *app, pos []string) (string, error) {
	text := strings.Join(pos, " ")
	if text == "-" {
		b, err := io.ReadAll(io.LimitReader(a.stdin, maxStdin))
		if err != nil {
			return "", fmt.Errorf("reading standard input: %w", err)
		}
		text = string(b)
	}
	if strings.TrimSpace(text) == "" {
		return "", usagef("nothing to check: give the claim as arguments, e.g. factbot check \"The Great Wall of China is visible from space\"")
	}
	return text, nil
}

// checkFailed is the error of a check that produced no report: a setting
// to fix, input the engine refused (a usage error), or a failure.
func checkFailed(err error) error {
	if err == nil {
		return errors.New("the check produced no report")
	}
	if usererr.IsConfig(err) {
		return err
	}
	if msg, ok := usererr.Message(err); ok {
		return &usageError{msg: msg, err: err}
	}
	return fmt.Errorf("the check failed: %w", err)
}

// cliUser is who runs a command in the terminal, for the history of the cli
// tenant: USER, or when it is unset the system's name for the process's user
// (its uid when it has none), so that a check and the links to it agree on
// who asked without USER.
func cliUser(cfg *config.Config) string {
	if cfg.User != "" {
		return cfg.User
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "uid-" + strconv.Itoa(os.Getuid())
}

// writeCheckOutput prints the report on stdout, as text or JSON.
func writeCheckOutput(a *app, rep *factcheck.Report, id string, asJSON bool) error {
	if !asJSON {
		writeReport(a.stdout, rep, id)
		return nil
	}
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	out := struct {
		ID string `json:"id,omitempty"`
		*factcheck.Report
	}{id, rep}
	return enc.Encode(out)
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
