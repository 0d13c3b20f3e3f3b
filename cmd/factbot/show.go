package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/store"
)

func init() {
	register("show", command{
		summary: "show one past check in full: factbot show ID [--json] [--tenant T]",
		run:     runShow,
	})
}

func runShow(ctx context.Context, a *app, args []string) int {
	fs, tenant := newStoreFlags(a, "show", "factbot show ID [--json] [--tenant T]")
	jsonOut := fs.Bool("json", false, "print the check as one JSON object")
	pos, code, ok := parseStoreFlags(a, fs, args, 1)
	if !ok {
		return code
	}
	db, err := openExistingStore(a)
	if err != nil {
		return storeFailed(a, err)
	}
	defer db.Close()
	c, err := db.Check(ctx, *tenant, pos[0])
	if errors.Is(err, store.ErrNotFound) {
		fmt.Fprintf(a.stderr, "factbot show: no check %q in tenant %s (see factbot history --tenant %s)\n", pos[0], *tenant, *tenant)
		return exitFailed
	}
	if err != nil {
		return storeFailed(a, err)
	}
	if *jsonOut {
		enc := json.NewEncoder(a.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(c); err != nil {
			return exitFailed
		}
		return exitOK
	}
	writeCheck(a.stdout, c)
	return exitOK
}

// writeCheck prints the full audit record of a check.
func writeCheck(w io.Writer, c *store.Check) {
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
	fmt.Fprintf(w, "\nAsked:\n  %s\n", wrap(c.Text, 76, "  "))
	rep := c.Report
	if rep == nil {
		fmt.Fprintln(w, "\nNo report was recorded.")
		return
	}
	if rep.Notice != "" {
		fmt.Fprintf(w, "\nNotice: %s\n", rep.Notice)
	}
	fmt.Fprintf(w, "\nAnswered (model %s, %d prompt + %d output tokens):\n", orDash(rep.Model), rep.Usage.PromptTokens, rep.Usage.OutputTokens)
	if len(rep.Claims) == 0 {
		fmt.Fprintln(w, "  No check-worthy factual claim was found.")
	}
	for i, v := range rep.Claims {
		fmt.Fprintf(w, "\nClaim %d of %d: %s\n", i+1, len(rep.Claims), v.Claim)
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
			fmt.Fprintf(w, "  %s\n", wrap(v.Reasoning, 76, "  "))
		}
		if len(v.Evidence) > 0 {
			fmt.Fprintln(w, "  Evidence:")
		}
		for _, e := range v.Evidence {
			side := "refutes"
			if e.Supports {
				side = "supports"
			}
			found := "quote found in the page"
			if !e.QuoteFound {
				found = "quote NOT found in the page"
			}
			fmt.Fprintf(w, "    [%s] %s <%s>\n", side, oneLine(e.SourceTitle, 80), e.SourceURL)
			if e.Publisher != "" || e.Rating != "" {
				fmt.Fprintf(w, "      fact-check by %s: %s\n", orDash(e.Publisher), orDash(e.Rating))
			}
			fmt.Fprintf(w, "      %q (%s)\n", e.QuoteOrSummary, found)
		}
		if len(v.Sources) > 0 {
			fmt.Fprintln(w, "  Sources retrieved:")
		}
		for _, s := range v.Sources {
			extra := ""
			if s.SHA256 != "" {
				extra += " sha256:" + s.SHA256
			}
			if s.Cited {
				extra += " cited"
			}
			fmt.Fprintf(w, "    %s  %-10s %s%s\n", s.FetchedAt.UTC().Format("2006-01-02 15:04:05Z"), s.Via, s.URL, extra)
		}
		writeTrace(w, v.Trace)
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
	if len(c.Feedback) > 0 {
		fmt.Fprintln(w, "\nFeedback:")
		for _, f := range c.Feedback {
			claim := "the check"
			if f.Claim >= 0 {
				claim = fmt.Sprintf("claim %d", f.Claim+1)
			}
			fmt.Fprintf(w, "  %s %s on %s: %s\n", f.At.UTC().Format("2006-01-02 15:04Z"), orDash(f.User), claim, oneLine(f.Note, 200))
		}
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
