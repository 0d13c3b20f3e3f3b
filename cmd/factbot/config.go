package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"text/tabwriter"
	"time"

	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/internal/keyring"
	"github.com/factbot-dev/factbot/store"
)

func runConfig(ctx context.Context, a *app, args []string) error {
	if err := parseNoArgs(a, "config", "Usage: factbot config\n\nPrints every setting with its value (secrets masked) and whether it is the\ndefault, which platforms and modes are enabled, and what is missing for the\nrest. Exit status 0 when the configuration is valid, 2 when not.", args); err != nil {
		return err
	}
	cfg, loadErr := a.config()
	writeConfig(a.stdout, cfg)
	if cfg.Slack.OAuth() {
		fmt.Fprintf(a.stdout, "\nSlack workspaces installed: %s\n", installedWorkspaces(ctx, a, cfg))
	}
	// What makes the configuration invalid: a malformed value, an engine
	// that cannot run, a chat platform set up by half.
	var errs []error
	seen := map[string]bool{}
	for _, ce := range configErrors(errors.Join(loadErr, cfg.Model.Err(), cfg.SearchErr(), cfg.SlackErr())) {
		if !seen[ce.Error()] {
			seen[ce.Error()] = true
			errs = append(errs, ce)
		}
	}
	return errors.Join(errs...)
}

// installedWorkspaces counts the Slack installations in the database, or
// says why it cannot: no database yet, or one held by factbot serve (which
// logs every install and uninstall).
func installedWorkspaces(ctx context.Context, a *app, cfg *config.Config) string {
	if isPostgres(cfg) {
		db, err := openBackend(ctx, a, cfg)
		if err != nil {
			return "not counted: " + err.Error()
		}
		defer db.Close()
		return countInstalls(ctx, db)
	}
	if _, err := os.Stat(cfg.DB); errors.Is(err, os.ErrNotExist) {
		return "0 (no database yet at " + cfg.DB + ")"
	}
	db, err := store.Open(cfg.DB, store.Options{Timeout: 200 * time.Millisecond})
	if errors.Is(err, store.ErrLocked) {
		return "not counted: " + cfg.DB + " is in use by factbot serve (it logs each install and uninstall)"
	}
	if err != nil {
		return "not counted: " + err.Error()
	}
	defer db.Close()
	return countInstalls(ctx, db)
}

// countInstalls counts the Slack installations in db.
func countInstalls(ctx context.Context, db interface {
	Installations(*keyring.Keyring) *store.Installations
}) string {
	n, err := db.Installations(nil).Count(ctx, slack.Name)
	if err != nil {
		return "not counted: " + err.Error()
	}
	return fmt.Sprint(n)
}

// writeConfig prints the settings and the features they turn on.
func writeConfig(w io.Writer, cfg *config.Config) {
	fmt.Fprintln(w, "Settings (set: from the environment; default: not set, the default applies):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range cfg.Settings() {
		src := "set"
		if s.Default {
			src = "default"
			if s.Value == "" {
				src = "not set"
			}
		}
		fmt.Fprintf(tw, "  %s=%s\t%s\n", s.Name, termText(s.Value), src)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nEnabled:")
	var off []config.Feature
	for _, f := range cfg.Features() {
		if !f.On {
			off = append(off, f)
			continue
		}
		fmt.Fprintf(w, "  %s: %s\n", f.Name, termText(f.Detail))
	}
	if len(off) > 0 {
		fmt.Fprintln(w, "\nNot enabled:")
	}
	for _, f := range off {
		fmt.Fprintf(w, "  %s: %s\n", f.Name, f.Missing)
	}
}
