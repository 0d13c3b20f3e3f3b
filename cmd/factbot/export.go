package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/store"
	"github.com/factbot-dev/factbot/web"
)

// csvHeader names the columns of the CSV export: one row per claim (a
// check without claims has one row with empty claim columns).
var csvHeader = []string{"id", "created_at", "tenant", "platform", "channel", "thread", "link", "user", "request_key", "text",
	"claim_index", "claim", "verdict", "confidence", "cached", "checked_at", "model", "reasoning", "evidence", "sources"}

func runExport(ctx context.Context, a *app, args []string) error {
	fs, tenant := newStoreFlags(a, "export", "factbot export [--format jsonl|csv|claimreview] [--tenant T]\n       factbot export --feedback [--tenant T]\n\nWrites a tenant's checks to standard output, oldest first. With --feedback it writes instead the claims people flagged as wrongly judged, as a factbot eval dataset (JSON Lines): {\"id\": \"CHECK-N\", \"claim\", \"label\": \"\", \"previous_verdict\", \"notes\"}, N counting claims from 1. The label is empty because nobody has said yet what is right: fill it in (supported, contradicted, contested or unverifiable) before factbot eval --dataset, which refuses empty labels.")
	format := fs.String("format", "jsonl", "jsonl (one JSON check per line, everything), csv (one row per claim, for spreadsheets) or claimreview (a JSON array of schema.org ClaimReview objects, one per claim: see docs/claimreview.md)")
	feedback := fs.Bool("feedback", false, "export the claims flagged by \"wrong verdict?\" feedback as an eval dataset (JSON Lines) to label")
	if _, err := parseStoreFlags(a, fs, args, 0); err != nil {
		return err
	}
	if *format != "jsonl" && *format != "csv" && *format != "claimreview" {
		return usagef("--format %q: want jsonl, csv or claimreview", *format)
	}
	formatSet := false
	fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
	if *feedback && formatSet && *format != "jsonl" {
		return usagef("--feedback writes JSON Lines (the eval dataset format); drop --format")
	}
	var site web.ReviewSite
	if *format == "claimreview" {
		cfg, err := a.config()
		if err != nil {
			return err
		}
		if cfg.Web.PublicURL == "" {
			return &usererr.Config{Var: "FACTBOT_PUBLIC_URL", Msg: "not set, and each ClaimReview's url is the check's page, an absolute address",
				Hint: "the https:// address people open the web view at, e.g. https://factbot.example.org"}
		}
		site = web.ReviewSite{PublicURL: cfg.Web.PublicURL, Organization: cfg.Web.Organization}
	}
	db, err := openData(ctx, a, true)
	if err != nil {
		return err
	}
	defer db.Close()
	switch {
	case *feedback:
		return exportFeedback(ctx, a, db, *tenant)
	case *format == "claimreview":
		return exportClaimReviews(ctx, a, db, *tenant, site)
	}
	return exportChecks(ctx, a, db, *tenant, *format)
}

// exportClaimReviews writes the ClaimReview of every checked claim of the
// tenant, oldest check first, as one JSON array: the objects each check's
// page carries (web.ClaimReviews).
func exportClaimReviews(ctx context.Context, a *app, db backend, tenant string, site web.ReviewSite) error {
	bw := bufio.NewWriter(a.stdout)
	n, checks := 0, 0
	bw.WriteString("[")
	err := db.EachCheck(ctx, tenant, func(c *store.Check) error {
		checks++
		for _, r := range web.ClaimReviews(c, site) {
			b, err := json.MarshalIndent(r, "  ", "  ") // escapes <, > and & as \u003c…
			if err != nil {
				return err
			}
			if n > 0 {
				bw.WriteString(",")
			}
			n++
			bw.WriteString("\n  ")
			bw.Write(b)
		}
		return nil
	})
	if err != nil {
		return err
	}
	bw.WriteString("\n]\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "Exported %d ClaimReviews of %d checks of tenant %s.\n", n, checks, tenant)
	return nil
}

// exportChecks writes every check of tenant as JSON Lines or CSV.
func exportChecks(ctx context.Context, a *app, db backend, tenant, format string) error {
	bw := bufio.NewWriter(a.stdout)
	n := 0
	var each func(*store.Check) error
	var cw *csv.Writer
	if format == "jsonl" {
		enc := json.NewEncoder(bw)
		each = func(c *store.Check) error { n++; return enc.Encode(c) }
	} else {
		cw = csv.NewWriter(bw)
		if err := cw.Write(csvHeader); err != nil {
			return err
		}
		each = func(c *store.Check) error { n++; return cw.WriteAll(csvRows(c)) }
	}
	if err := db.EachCheck(ctx, tenant, each); err != nil {
		return err
	}
	if cw != nil {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return err
		}
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "Exported %d checks of tenant %s.\n", n, tenant)
	return nil
}

func csvRows(c *store.Check) [][]string {
	base := []string{c.ID, c.CreatedAt.UTC().Format(time.RFC3339), c.Tenant, c.Platform, c.Channel, c.Thread, c.Link, c.User, c.RequestKey, c.Text}
	var rows [][]string
	if c.Report != nil {
		for i, v := range c.Report.Claims {
			var ev, src []string
			for _, e := range v.Evidence {
				side := string(e.StanceOf())
				ev = append(ev, fmt.Sprintf("%s %s quote_found=%t", side, e.SourceURL, e.QuoteFound))
			}
			for _, s := range v.Sources {
				src = append(src, s.URL)
			}
			row := append(append([]string{}, base...), strconv.Itoa(i+1), v.Claim, string(v.Verdict), string(v.Confidence),
				strconv.FormatBool(v.Cached), v.CheckedAt.UTC().Format(time.RFC3339), v.Model, v.Reasoning,
				strings.Join(ev, "\n"), strings.Join(src, "\n"))
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		rows = append(rows, append(base, make([]string, len(csvHeader)-len(base))...))
	}
	for _, r := range rows {
		for i, cell := range r {
			r[i] = csvSafe(cell)
		}
	}
	return rows
}

// csvSafe keeps a spreadsheet from reading a cell as a formula.
func csvSafe(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// feedbackCase is one line of the feedback dataset: the eval JSON Lines
// fields (id, claim, label, notes), with the verdict given before.
type feedbackCase struct {
	ID              string `json:"id"`
	Claim           string `json:"claim"`
	Label           string `json:"label"`
	PreviousVerdict string `json:"previous_verdict"`
	Notes           string `json:"notes"`
}

// exportFeedback writes one feedbackCase per claim of the tenant flagged by
// feedback (feedback on claim -1 flags every claim of its check), oldest
// check first. Several remarks on one claim share its line.
func exportFeedback(ctx context.Context, a *app, db backend, tenant string) error {
	bw := bufio.NewWriter(a.stdout)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	lines, checks, skipped := 0, 0, 0
	err := db.EachCheck(ctx, tenant, func(c *store.Check) error {
		cases, bad := feedbackCases(c)
		for _, f := range bad {
			skipped++
			fmt.Fprintf(a.stderr, "factbot export: feedback of %s at %s on claim %d of check %s, which has %d claims: skipped\n",
				orDash(f.User), f.At.UTC().Format(time.RFC3339), f.Claim+1, c.ID, len(reportClaims(c)))
		}
		if len(cases) > 0 {
			checks++
		}
		for _, fc := range cases {
			lines++
			if err := enc.Encode(fc); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "Exported %d flagged claims of %d checks of tenant %s", lines, checks, tenant)
	if skipped > 0 {
		fmt.Fprintf(a.stderr, " (%d remarks on claims that do not exist skipped)", skipped)
	}
	fmt.Fprintln(a.stderr, ".")
	if lines > 0 {
		fmt.Fprintln(a.stderr, "Each \"label\" is empty: set it to supported, contradicted, contested or unverifiable before using the file with factbot eval --dataset.")
	}
	return nil
}

func reportClaims(c *store.Check) []*factcheck.Verdict {
	if c.Report == nil {
		return nil
	}
	return c.Report.Claims
}

// feedbackCases returns the dataset lines of one check's feedback, in claim
// order, and the feedback naming claims the check does not have.
func feedbackCases(c *store.Check) ([]feedbackCase, []store.Feedback) {
	claims := reportClaims(c)
	notes := make([][]string, len(claims))
	var bad []store.Feedback
	for _, f := range c.Feedback {
		idx := []int{f.Claim}
		if f.Claim < 0 {
			idx = idx[:0]
			for i := range claims {
				idx = append(idx, i)
			}
		} else if f.Claim >= len(claims) || claims[f.Claim] == nil {
			bad = append(bad, f)
			continue
		}
		for _, i := range idx {
			if claims[i] == nil {
				continue
			}
			n := fmt.Sprintf("flagged wrong by %s at %s: was %s", orDash(f.User), f.At.UTC().Format(time.RFC3339), claims[i].Verdict)
			if note := strings.TrimSpace(f.Note); note != "" {
				n += "; " + note
			}
			notes[i] = append(notes[i], n)
		}
	}
	var out []feedbackCase
	for i, ns := range notes {
		if len(ns) == 0 {
			continue
		}
		out = append(out, feedbackCase{
			ID:              fmt.Sprintf("%s-%d", c.ID, i+1),
			Claim:           claims[i].Claim,
			PreviousVerdict: string(claims[i].Verdict),
			Notes:           strings.Join(ns, " | "),
		})
	}
	return out, bad
}
