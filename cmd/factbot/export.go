package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/factbot-dev/factbot/store"
)

func init() {
	register("export", command{
		summary: "export a tenant's checks: factbot export [--format jsonl|csv] [--tenant T] > file",
		run:     runExport,
	})
}

// csvHeader names the columns of the CSV export: one row per claim (a
// check without claims has one row with empty claim columns).
var csvHeader = []string{"id", "created_at", "tenant", "platform", "channel", "thread", "link", "user", "request_key", "text",
	"claim_index", "claim", "verdict", "confidence", "cached", "checked_at", "model", "reasoning", "evidence", "sources"}

func runExport(ctx context.Context, a *app, args []string) int {
	fs, tenant := newStoreFlags(a, "export", "factbot export [--format jsonl|csv] [--tenant T]")
	format := fs.String("format", "jsonl", "jsonl (one JSON check per line, everything) or csv (one row per claim, for spreadsheets)")
	if _, code, ok := parseStoreFlags(a, fs, args, 0); !ok {
		return code
	}
	if *format != "jsonl" && *format != "csv" {
		fmt.Fprintf(a.stderr, "factbot export: --format %q: want jsonl or csv\n", *format)
		return exitUsage
	}
	db, err := openExistingStore(a)
	if err != nil {
		return storeFailed(a, err)
	}
	defer db.Close()
	bw := bufio.NewWriter(a.stdout)
	n := 0
	var each func(*store.Check) error
	var cw *csv.Writer
	if *format == "jsonl" {
		enc := json.NewEncoder(bw)
		each = func(c *store.Check) error { n++; return enc.Encode(c) }
	} else {
		cw = csv.NewWriter(bw)
		if err := cw.Write(csvHeader); err != nil {
			return storeFailed(a, err)
		}
		each = func(c *store.Check) error { n++; return cw.WriteAll(csvRows(c)) }
	}
	if err := db.EachCheck(ctx, *tenant, each); err != nil {
		return storeFailed(a, err)
	}
	if cw != nil {
		cw.Flush()
		if err := cw.Error(); err != nil {
			return storeFailed(a, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return storeFailed(a, err)
	}
	fmt.Fprintf(a.stderr, "Exported %d checks of tenant %s.\n", n, *tenant)
	return exitOK
}

func csvRows(c *store.Check) [][]string {
	base := []string{c.ID, c.CreatedAt.UTC().Format(time.RFC3339), c.Tenant, c.Platform, c.Channel, c.Thread, c.Link, c.User, c.RequestKey, c.Text}
	var rows [][]string
	if c.Report != nil {
		for i, v := range c.Report.Claims {
			var ev, src []string
			for _, e := range v.Evidence {
				side := "refutes"
				if e.Supports {
					side = "supports"
				}
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
