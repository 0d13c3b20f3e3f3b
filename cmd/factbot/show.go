package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/factbot-dev/factbot/bot/words"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/internal/usererr"
	"github.com/factbot-dev/factbot/search"
	"github.com/factbot-dev/factbot/store"
)

func runShow(ctx context.Context, a *app, args []string) error {
	fs, tenant := newStoreFlags(a, "show", "factbot show ID [--json] [--tenant T] [--page SHA256]\n\nPrints a past check: who asked, what they sent, each verdict with its evidence, every source retrieved (with its fetch time, content hash and whether a snapshot of the page is kept) and the trace. With --page, prints instead the kept snapshot of one page the check read, as it was read.")
	jsonOut := fs.Bool("json", false, "print the check (or with --page the page) as one JSON object")
	page := fs.String("page", "", "print the snapshot of a page this check read, by its SHA-256 or a unique prefix of at least 8 hex digits")
	pos, err := parseStoreFlags(a, fs, args, 1)
	if err != nil {
		return err
	}
	db, err := openData(ctx, a, true)
	if err != nil {
		return err
	}
	defer db.Close()
	c, err := db.Check(ctx, *tenant, pos[0])
	if errors.Is(err, store.ErrNotFound) {
		return &usererr.Error{Msg: fmt.Sprintf("no check %q in tenant %s (see factbot history --tenant %s)", pos[0], *tenant, *tenant), Err: err}
	}
	if err != nil {
		return err
	}
	if *page != "" {
		return showPage(ctx, a, db, c, *page, *jsonOut)
	}
	if *jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(c)
	}
	kept := map[string]bool{}
	for _, sha := range pageHashes(c) {
		_, err := db.PageSnapshot(ctx, sha)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		kept[sha] = err == nil
	}
	writeCheck(a.stdout, c, kept)
	return nil
}

// pageHashes returns the distinct content hashes of the pages a check read.
func pageHashes(c *store.Check) []string {
	var out []string
	seen := map[string]bool{}
	if c.Report == nil {
		return nil
	}
	for _, v := range c.Report.Claims {
		for _, s := range v.Sources {
			if s.SHA256 != "" && !seen[s.SHA256] {
				seen[s.SHA256] = true
				out = append(out, s.SHA256)
			}
		}
	}
	return out
}

// showPage prints the kept snapshot of a page the check read: what the
// page said when the verdict was made, even if it has changed since.
func showPage(ctx context.Context, a *app, db backend, c *store.Check, arg string, jsonOut bool) error {
	want := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(arg), "sha256:"))
	hashes := pageHashes(c)
	var match []string
	for _, h := range hashes {
		if strings.ToLower(h) == want {
			match = []string{h}
			break
		}
		if len(want) >= 8 && strings.HasPrefix(strings.ToLower(h), want) {
			match = append(match, h)
		}
	}
	switch {
	case len(match) > 1:
		return usagef("--page %s matches %d pages of check %s; give more of the hash:\n  %s", arg, len(match), c.ID, strings.Join(match, "\n  "))
	case len(match) == 0 && len(hashes) == 0:
		return usererr.Errorf("check %s read no page, so it has no page snapshot", c.ID)
	case len(match) == 0:
		return usererr.Errorf("check %s read no page with SHA-256 %q (a full hash, or a prefix of at least 8 hex digits); the pages it read:\n  %s", c.ID, arg, strings.Join(hashes, "\n  "))
	}
	p, err := db.PageSnapshot(ctx, match[0])
	if errors.Is(err, store.ErrNotFound) {
		return &usererr.Error{Msg: fmt.Sprintf("no snapshot of page %s is kept (it was pruned, or read before factbot kept snapshots)", match[0]), Err: err}
	}
	if err != nil {
		return err
	}
	if jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(p)
	}
	writePage(a.stdout, c, p)
	return nil
}

// writePage prints a page snapshot. Page text is the web's: control
// characters are removed so it cannot drive the terminal.
func writePage(w io.Writer, c *store.Check, p *search.Page) {
	fmt.Fprintf(w, "Page sha256:%s, as read for check %s\n", p.SHA256, c.ID)
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(w, "  %-10s %s\n", name+":", oneLine(v, 300))
		}
	}
	field("Asked for", p.URL)
	if p.FinalURL != p.URL {
		field("Final URL", p.FinalURL)
	}
	field("Title", p.Title)
	field("Site", p.Site)
	field("Byline", p.Byline)
	field("Published", p.Published)
	field("Fetched", p.FetchedAt.UTC().Format("2006-01-02 15:04:05Z"))
	size := fmt.Sprintf("%d bytes", p.Bytes)
	if p.Truncated {
		size += " (only the start was read: the page was longer than the reader's limit)"
	}
	field("Body", size)
	fmt.Fprintln(w, "\nText as extracted:")
	for _, line := range strings.Split(p.Text, "\n") {
		if line = wrap(termText(line), 76, "  "); line != "" {
			fmt.Fprintf(w, "  %s\n", line)
		} else {
			fmt.Fprintln(w)
		}
	}
}

// termText removes control characters (escape sequences, carriage
// returns) from text for the terminal, keeping tabs as spaces.
// termLines is termText line by line: it keeps the line breaks.
func termLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termText(l)
	}
	return strings.Join(lines, "\n")
}

func termText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return ' '
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			return -1
		}
		return r
	}, s)
}

// writeCheck prints the full audit record of a check. kept says, for each
// page hash, whether a snapshot of the page is kept.
func writeCheck(w io.Writer, c *store.Check, kept map[string]bool) {
	fmt.Fprintf(w, "Check %s\n", c.ID)
	field := func(name, v string) {
		if v != "" {
			fmt.Fprintf(w, "  %-9s %s\n", name+":", oneLine(v, 200))
		}
	}
	field("When", c.CreatedAt.UTC().Format("2006-01-02 15:04:05Z"))
	field("Tenant", c.Tenant)
	field("Platform", c.Platform)
	field("Channel", c.Channel)
	field("Thread", c.Thread)
	field("Link", c.Link)
	field("User", c.User)
	field("Request", c.RequestKey)
	fmt.Fprintf(w, "\nAsked:\n  %s\n", wrap(termText(c.Text), 76, "  "))
	rep := c.Report
	if rep == nil {
		fmt.Fprintln(w, "\nNo report was recorded.")
		return
	}
	if rep.Notice != "" {
		fmt.Fprintf(w, "\nNotice: %s\n", rep.Notice)
	}
	writeAttachments(w, c.Message, rep.Attachments)
	fmt.Fprintf(w, "\nAnswered (model %s, %d prompt + %d output tokens):\n", orDash(rep.Model), rep.Usage.PromptTokens, rep.Usage.OutputTokens)
	if len(rep.Claims) == 0 {
		fmt.Fprintln(w, "  No check-worthy factual claim was found.")
	}
	for i, v := range rep.Claims {
		writeClaimRecord(w, c, i, v, kept)
	}
	if len(rep.NotCheckable) > 0 {
		fmt.Fprintln(w, "\nNot checkable:")
		for _, n := range rep.NotCheckable {
			fmt.Fprintf(w, "  %q: %s\n", n.Text, n.Reason)
		}
	}
	if len(rep.Trace) > 0 {
		fmt.Fprintln(w, "\nExtraction:")
		writeTrace(w, rep.Trace)
	}
	writeFeedback(w, c.Feedback)
}

// writeAttachments prints the files read with the message checked, with
// their SHA-256.
func writeAttachments(w io.Writer, message string, as []factcheck.Attachment) {
	if message != "" {
		fmt.Fprintf(w, "\nMessage read: %s\n", message)
	}
	if len(as) == 0 {
		return
	}
	fmt.Fprintln(w, "\nAttachments:")
	for _, a := range as {
		what := "PDF"
		if a.Picture > 0 {
			what = fmt.Sprintf("picture %d", a.Picture)
		}
		read := "read"
		if !a.Read {
			read = "not read: " + a.Note
		}
		fmt.Fprintf(w, "  %s %s (%s, %d bytes, %s)\n    sha256 %s\n", what, termText(a.Name), a.MIME, a.Bytes, read, a.SHA256)
	}
}

// writeClaimRecord prints claim i of check c: the verdict, the evidence,
// the sources retrieved and the trace.
func writeClaimRecord(w io.Writer, c *store.Check, i int, v *factcheck.Verdict, kept map[string]bool) {
	fmt.Fprintf(w, "\nClaim %d of %d: %s\n", i+1, len(c.Report.Claims), v.Claim)
	mark := labelMarks[v.Verdict]
	if mark == "" {
		mark = string(v.Verdict)
	}
	fmt.Fprintf(w, "  %s (%s confidence), checked %s by %s", mark, v.Confidence, v.CheckedAt.UTC().Format("2006-01-02 15:04Z"), orDash(v.Model))
	if v.Cached {
		fmt.Fprint(w, ", cached answer")
	}
	if v.StoppedBy != "" {
		fmt.Fprintf(w, ", %s budget reached", v.StoppedBy)
	}
	fmt.Fprintln(w)
	if v.Error != "" {
		fmt.Fprintf(w, "  Error: %s\n", v.Error)
	}
	if v.Reasoning != "" {
		fmt.Fprintf(w, "  %s\n", wrap(termText(v.Reasoning), 76, "  "))
	}
	if len(v.Evidence) > 0 {
		fmt.Fprintln(w, "  Evidence:")
	}
	for _, e := range v.Evidence {
		side := string(e.StanceOf())
		fmt.Fprintf(w, "    [%s] %s <%s>\n", side, oneLine(e.SourceTitle, 80), e.SourceURL)
		if e.Publisher != "" || e.Rating != "" {
			fmt.Fprintf(w, "      fact-check by %s: %s\n", orDash(e.Publisher), orDash(e.Rating))
		}
		if e.QuoteOrSummary != "" {
			fmt.Fprintf(w, "      %q (%s)\n", e.QuoteOrSummary, words.QuoteNote(e))
		}
	}
	writeSources(w, c, v.Sources, kept)
	writeTrace(w, v.Trace)
}

// writeSources prints the sources a claim's check retrieved and how to see
// a kept page.
func writeSources(w io.Writer, c *store.Check, sources []factcheck.Source, kept map[string]bool) {
	if len(sources) > 0 {
		fmt.Fprintln(w, "  Sources retrieved:")
	}
	for _, s := range sources {
		extra := ""
		if s.SHA256 != "" {
			extra += " sha256:" + s.SHA256
		}
		if s.Cited {
			extra += " cited"
		}
		if s.SHA256 != "" {
			if kept[s.SHA256] {
				extra += ", snapshot kept"
			} else {
				extra += ", no snapshot kept"
			}
		}
		fmt.Fprintf(w, "    %s  %-10s %s%s\n", s.FetchedAt.UTC().Format("2006-01-02 15:04:05Z"), s.Via, oneLine(s.URL, 500), extra)
	}
	for _, s := range sources {
		if kept[s.SHA256] {
			tenant := ""
			if c.Tenant != cliTenant {
				tenant = " --tenant " + c.Tenant
			}
			fmt.Fprintf(w, "    (what a kept page said then: factbot show %s%s --page %s)\n", c.ID, tenant, shortHash(s.SHA256))
			break
		}
	}
}

// writeFeedback prints the "Wrong verdict?" remarks on a check.
func writeFeedback(w io.Writer, fb []store.Feedback) {
	if len(fb) == 0 {
		return
	}
	fmt.Fprintln(w, "\nFeedback:")
	for _, f := range fb {
		claim := "the check"
		if f.Claim >= 0 {
			claim = fmt.Sprintf("claim %d", f.Claim+1)
		}
		fmt.Fprintf(w, "  %s %s on %s: %s\n", f.At.UTC().Format("2006-01-02 15:04Z"), orDash(f.User), claim, oneLine(f.Note, 200))
	}
}

func writeTrace(w io.Writer, tr []factcheck.TraceEvent) {
	if len(tr) == 0 {
		return
	}
	fmt.Fprintln(w, "  Trace:")
	for _, e := range tr {
		var parts []string
		switch e.Kind {
		case "model":
			if e.Usage != nil {
				parts = append(parts, fmt.Sprintf("%d+%d tokens", e.Usage.PromptTokens, e.Usage.OutputTokens))
			}
			if e.FinishReason != "" {
				parts = append(parts, e.FinishReason)
			}
		case "tool":
			parts = append(parts, e.Tool+" "+oneLine(e.Args, 120))
			if e.ResultBytes > 0 {
				parts = append(parts, fmt.Sprintf("%d bytes", e.ResultBytes))
			}
		}
		if e.Note != "" {
			parts = append(parts, oneLine(e.Note, 120))
		}
		if e.Error != "" {
			parts = append(parts, "error: "+oneLine(e.Error, 120))
		}
		fmt.Fprintf(w, "    %s %-5s %s\n", e.At.UTC().Format("15:04:05.000"), e.Kind, strings.Join(parts, ", "))
	}
}

// shortHash is a hash cut to 12 digits for a hint; --page takes a prefix.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
