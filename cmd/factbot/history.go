package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

func runHistory(ctx context.Context, a *app, args []string) error {
	fs, tenant := newStoreFlags(a, "history", "factbot history [--json] [--tenant T] [--channel C] [--user U] [--verdict V] [--since DATE] [--search WORDS] [--limit N]")
	jsonOut := fs.Bool("json", false, "print a JSON array")
	var q store.HistoryQuery
	fs.StringVar(&q.Channel, "channel", "", "only checks asked in this channel")
	fs.StringVar(&q.User, "user", "", "only checks asked by this user")
	verdict := fs.String("verdict", "", "only checks with a claim of this verdict: supported, contradicted, contested or unverifiable")
	since := fs.String("since", "", "only checks since a date (2026-11-01), a time (RFC 3339) or an age (7d, 36h)")
	fs.StringVar(&q.Search, "search", "", "only checks whose claims or text contain all these words (word starts, any case)")
	fs.IntVar(&q.Limit, "limit", store.DefaultLimit, fmt.Sprintf("at most this many checks (up to %d)", store.MaxLimit))
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	if *verdict != "" {
		q.Verdict = factcheck.Label(strings.ToLower(*verdict))
		if !q.Verdict.Valid() {
			return usagef("--verdict %q: want supported, contradicted, contested or unverifiable", *verdict)
		}
	}
	if *since != "" {
		t, err := parseSince(*since, time.Now())
		if err != nil {
			return &usageError{msg: err.Error(), err: err}
		}
		q.Since = t
	}
	if q.Limit <= 0 || q.Limit > store.MaxLimit {
		return usagef("--limit %d: want 1 to %d", q.Limit, store.MaxLimit)
	}
	db, err := openData(ctx, a, true)
	if err != nil {
		return err
	}
	defer db.Close()
	h, err := db.History(ctx, *tenant, q)
	if err != nil {
		return err
	}
	if *jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(h)
	}
	if len(h) == 0 {
		fmt.Fprintf(a.stderr, "No checks found in tenant %s.\n", *tenant)
		return nil
	}
	writeHistory(a.stdout, h)
	return nil
}

// writeHistory prints one line per check:
// ID  time  user  channel  verdict-summary  text…
func writeHistory(w io.Writer, h []store.CheckSummary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, s := range h {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, s.CreatedAt.UTC().Format("2006-01-02 15:04Z"),
			orDash(oneLine(s.User, 20)), orDash(oneLine(s.Channel, 20)), verdictSummary(s), oneLine(s.Text, 60))
	}
	tw.Flush()
}

// verdictSummary counts a check's verdicts: "2 supported, 1 contradicted",
// "(cached)" when some came from the cache.
func verdictSummary(s store.CheckSummary) string {
	if len(s.Verdicts) == 0 {
		return "no claims"
	}
	var parts []string
	for _, l := range factcheck.Labels {
		n := 0
		for _, v := range s.Verdicts {
			if v == l {
				n++
			}
		}
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, l))
		}
	}
	out := strings.Join(parts, ", ")
	if s.Cached {
		out += " (cached)"
	}
	return out
}

// oneLine collapses white space and control characters and cuts s to n
// runes with "…", so user text cannot break the line or the terminal.
func oneLine(s string, n int) string {
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0)
	}), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
