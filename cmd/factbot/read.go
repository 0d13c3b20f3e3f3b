package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/factbot-dev/factbot/search"
)

// readResult is the --json output of factbot read.
type readResult struct {
	*search.Page
	Error   string `json:"error,omitempty"`
	Refused bool   `json:"refused,omitempty"`
}

func runRead(ctx context.Context, a *app, args []string) error {
	fs := flag.NewFlagSet("read", flag.ContinueOnError)
	fs.SetOutput(a.stderr)
	asJSON := fs.Bool("json", false, "print the page as one JSON object")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: factbot read [--json] URL\n\nFetches URL the way the bot does and prints the final URL after redirects,\n"+
			"the title, site, publication date, page count (PDFs) and extracted text,\n"+
			"page by page for a PDF, or why the page was refused.\n"+
			"FACTBOT_ALLOW_PRIVATE_FETCH=1 lets it read private and loopback addresses.\n\nFlags:")
		fs.PrintDefaults()
	}
	pos, err := parseArgs(a, fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || strings.TrimSpace(pos[0]) == "" {
		fmt.Fprintln(a.stderr, "factbot read: give exactly one URL")
		fs.Usage()
		return &usageError{}
	}
	cfg, err := a.config()
	if err != nil {
		return err
	}
	raw := strings.TrimSpace(pos[0])
	if !strings.Contains(raw, "://") && !strings.Contains(raw, ":") {
		raw = "https://" + raw // "example.com/page" means the web page
	}
	r := search.NewReader(search.ReaderOptions{AllowPrivate: cfg.AllowPrivateFetch})
	p, err := r.Read(ctx, raw)
	if err != nil {
		var refused *search.RefusedError
		isRefused := errors.As(err, &refused)
		if *asJSON {
			writeReadJSON(a.stdout, readResult{Page: &search.Page{URL: raw}, Error: err.Error(), Refused: isRefused})
		}
		if isRefused && !cfg.AllowPrivateFetch && strings.Contains(err.Error(), " address") {
			return fmt.Errorf("%w\n(set FACTBOT_ALLOW_PRIVATE_FETCH=1 to read private and loopback addresses)", err)
		}
		return err
	}
	if *asJSON {
		writeReadJSON(a.stdout, readResult{Page: p})
		return nil
	}
	printReadPage(a.stdout, p)
	return nil
}

func writeReadJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

func printReadPage(w io.Writer, p *search.Page) {
	field := func(name, val string) {
		if val != "" {
			fmt.Fprintf(w, "%-10s %s\n", name+":", termText(val))
		}
	}
	field("URL", p.FinalURL)
	if p.FinalURL != p.URL {
		field("Asked", p.URL)
	}
	field("Title", p.Title)
	field("Site", p.Site)
	field("Published", p.Published)
	field("By", p.Byline)
	if p.PageCount > 0 {
		field("Pages", fmt.Sprint(p.PageCount))
	}
	size := fmt.Sprintf("%d bytes", p.Bytes)
	if p.Truncated {
		size += ", cut at the size cap"
	}
	field("Fetched", fmt.Sprintf("%s (%s, sha256 %s)", p.FetchedAt.Format("2006-01-02 15:04:05 MST"), size, p.SHA256))
	fmt.Fprintln(w)
	if p.Text == "" {
		fmt.Fprintln(w, "(no text found on the page)")
		return
	}
	if len(p.Pages) > 0 {
		for i, pg := range p.Pages {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "--- page %d ---\n", pg.N)
			if pg.Text != "" {
				fmt.Fprintln(w, termLines(pg.Text))
			}
		}
		return
	}
	fmt.Fprintln(w, termLines(p.Text)) // page text must not drive the terminal
}
