package main

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/cmd/factbot/config"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/store"
)

// The claims of the matching tests: one claim in English, a paraphrase, a
// Spanish translation and a French one, and twins an embedding puts as
// close (the fake's table groups them) but whose numbers, negation or
// place differ.
const (
	bridge        = "The Golden Gate Bridge carries 400 cars a day"
	bridgeAgain   = "Every day, 400 cars cross the Golden Gate Bridge"
	bridgeSpanish = "El puente Golden Gate soporta 400 coches al día"
	bridgeFrench  = "Le pont du Golden Gate supporte 400 voitures par jour"
	bridgeTenfold = "The Golden Gate Bridge carries 4,000 cars a day"
	bridgeNot     = "The Golden Gate Bridge does not carry 400 cars a day"
	bridgeOther   = "The Bay Bridge carries 400 cars a day"
)

// matchWorld is a world whose model finds, in any text, the one claim of
// the table it holds, researches it in two turns, and embeds the table's
// claims close together (the rest far).
func matchWorld(t *testing.T, embed geminitest.Embedder) *world {
	claims := []string{bridge, bridgeAgain, bridgeSpanish, bridgeFrench, bridgeTenfold, bridgeNot, bridgeOther}
	if embed == nil {
		embed = geminitest.Vectors(128, claims)
	}
	return newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		if isExtraction(r) {
			for _, c := range claims {
				if strings.Contains(r.FirstUserText(), c) {
					return claimsReply(c)
				}
			}
			t.Errorf("no claim of the table in %q", r.FirstUserText())
		}
		if r.Turns() == 0 {
			return searchCall("golden gate bridge traffic")
		}
		return verdictReply("unverifiable", "low", "No count of the bridge's traffic was found.")
	}, geminitest.WithEmbeddings(embed))
}

// researched runs factbot check --json with args and returns the report
// and how many model calls of research it made (the extraction's left out:
// -1 when the extraction was cached too).
func (w *world) researched(args ...string) (*factcheck.Report, int) {
	w.t.Helper()
	before := w.gemini.Calls()
	rep, _ := w.checkJSON(args...)
	return rep, w.gemini.Calls() - before - 1
}

// TestCheckMatchesEarlierCheck: a paraphrase and translations of a claim
// checked before are answered from that check at once, naming it, its
// claim and its date, with its verdict and evidence; each twin is
// researched; --fresh researches; each check embeds its claim once.
func TestCheckMatchesEarlierCheck(t *testing.T) {
	w := matchWorld(t, nil)
	first, n := w.researched(bridge)
	if n != 4 || first.Claims[0].Match != nil {
		t.Fatalf("first check: %d research calls, match %+v; want 4 (plan, two turns, critic) and none", n, first.Claims[0].Match)
	}
	stdout, _, _ := w.run("history", "--json")
	id := strings.SplitN(strings.SplitN(stdout, `"id": "`, 2)[1], `"`, 2)[0]

	for _, again := range []string{bridgeAgain, bridgeSpanish, bridgeFrench} {
		rep, n := w.researched(again)
		v := rep.Claims[0]
		if n != 0 || v.Match == nil {
			t.Errorf("%q: %d research calls, match %+v; want an answer from the earlier check", again, n, v.Match)
			continue
		}
		if v.Match.CheckID != id || v.Match.Claim != bridge || v.Match.CheckedAt.Sub(first.CheckedAt).Abs() > time.Minute {
			t.Errorf("%q: match %+v, want check %s of %q", again, v.Match, id, bridge)
		}
		if v.Claim != again || v.Verdict != first.Claims[0].Verdict || v.Reasoning != first.Claims[0].Reasoning {
			t.Errorf("%q: answered %q %s %q; want the earlier verdict for the new words", again, v.Claim, v.Verdict, v.Reasoning)
		}
	}
	for _, twin := range []string{bridgeTenfold, bridgeNot, bridgeOther} {
		if rep, n := w.researched(twin); n != 4 || rep.Claims[0].Match != nil {
			t.Errorf("twin %q: %d research calls, match %+v; want it researched", twin, n, rep.Claims[0].Match)
		}
	}
	if rep, n := w.researched("--fresh", bridgeAgain); n != 4 || rep.Claims[0].Match != nil {
		t.Errorf("--fresh: %d research calls, match %+v; want it researched", n, rep.Claims[0].Match)
	}
	human, _, _ := w.run("check", bridgeSpanish)
	if !strings.Contains(human, "Checked before, on ") || !strings.Contains(human, "“"+bridge+"”") || !strings.Contains(human, id) {
		t.Errorf("terminal output does not name the earlier check:\n%s", human)
	}
	// One embedding call per check of new claims; a claim the verdict
	// cache answers is not embedded.
	sent := len(w.gemini.EmbeddedTexts())
	if rep, n := w.researched(bridge); n > 0 || !rep.Claims[0].Cached || len(w.gemini.EmbeddedTexts()) != sent {
		t.Errorf("the first claim again: %d research calls, cached %v, %d texts embedded; want a cached answer and none",
			n, rep.Claims[0].Cached, len(w.gemini.EmbeddedTexts())-sent)
	}
	// Each check sent its claim once: the seven claims, the fresh one
	// again (a new process), the Spanish one again (answered by a match,
	// which the verdict cache does not keep: its words name another check).
	if got := w.gemini.EmbeddedTexts(); len(got) != 9 || w.gemini.EmbedCalls() != 9 {
		t.Errorf("embedded %q in %d calls, want 9 texts in 9 calls", got, w.gemini.EmbedCalls())
	}
}

// TestCheckMatchingFaults: an embedding call that fails, or a model
// without embeddings, costs the match and nothing else: the claim is
// researched and answered.
func TestCheckMatchingFaults(t *testing.T) {
	for name, embed := range map[string]geminitest.Embedder{
		"outage": func(string, string) []float32 { return nil },
	} {
		t.Run(name, func(t *testing.T) {
			w := matchWorld(t, embed)
			w.researched(bridge)
			rep, n := w.researched(bridgeAgain)
			if n != 4 || rep.Claims[0].Match != nil || rep.Claims[0].Verdict != factcheck.Unverifiable {
				t.Errorf("%d research calls, match %+v, verdict %s; want a full check", n, rep.Claims[0].Match, rep.Claims[0].Verdict)
			}
		})
	}
	t.Run("matching off", func(t *testing.T) {
		w := matchWorld(t, nil)
		w.env["FACTBOT_MATCH"] = "0"
		w.researched(bridge)
		if rep, n := w.researched(bridgeAgain); n != 4 || rep.Claims[0].Match != nil || w.gemini.EmbedCalls() != 0 {
			t.Errorf("FACTBOT_MATCH=0: %d research calls, match %+v, %d embedding calls; want a full check and none", n, rep.Claims[0].Match, w.gemini.EmbedCalls())
		}
	})
}

// TestMatchingOffAtStart: a model without embeddings, or an
// OpenAI-compatible server without an embedding model named, is named when
// a command starts, with how to turn matching off, and matching stays off.
func TestMatchingOffAtStart(t *testing.T) {
	ctx := context.Background()
	srv := geminitest.NewServer(t, nil) // its embedding endpoints answer 404
	cfg, err := config.Load(func(k string) string {
		return map[string]string{"GEMINI_API_KEY": "k", "GOOGLE_GEMINI_BASE_URL": srv.URL}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	c := &factcheck.Checker{}
	var warn, logs bytes.Buffer
	useMatching(ctx, cfg, c, &warn)
	if c.Embedder == nil || warn.Len() != 0 {
		t.Fatalf("Gemini: embedder %v, warning %q; want the embedder and no warning", c.Embedder, warn.String())
	}
	probeEmbedder(ctx, c, slog.New(slog.NewTextHandler(&logs, nil)))
	if c.Embedder != nil || !strings.Contains(logs.String(), "gemini-embedding-001") || !strings.Contains(logs.String(), "FACTBOT_MATCH=0") {
		t.Errorf("a model without embeddings: embedder %v, log %q; want it off, the model named and how to turn matching off", c.Embedder, logs.String())
	}

	cfg, err = config.Load(func(k string) string {
		return map[string]string{"FACTBOT_LLM": "openai", "FACTBOT_MODEL": "qwen3:8b", "OPENAI_BASE_URL": "http://localhost:11434/v1"}[k]
	})
	if err != nil {
		t.Fatal(err)
	}
	c = &factcheck.Checker{}
	useMatching(ctx, cfg, c, &warn)
	if c.Embedder != nil || !strings.Contains(warn.String(), "FACTBOT_EMBED_MODEL") || !strings.Contains(warn.String(), "FACTBOT_MATCH=0") {
		t.Errorf("a local server without an embedding model: embedder %v, warning %q; want it off, naming FACTBOT_EMBED_MODEL and FACTBOT_MATCH=0", c.Embedder, warn.String())
	}
}

// TestCheckMatchesWhileHeld: a check handed to the process that holds the
// bbolt file (factbot web here) is matched there, and keeps its vector.
func TestCheckMatchesWhileHeld(t *testing.T) {
	w := matchWorld(t, nil)
	w.env["FACTBOT_PUBLIC_URL"], w.env["FACTBOT_WEB_SECRET"] = "https://factbot.example", testWebSecret
	startWeb(t, w.env)
	if _, err := store.Open(w.env["FACTBOT_DB"], store.Options{Timeout: 10 * time.Millisecond}); err == nil {
		t.Fatal("the database is not held by factbot web: the test would prove nothing")
	}
	if _, n := w.researched(bridge); n != 4 {
		t.Fatalf("first check beside factbot web: %d research calls, want 4", n)
	}
	if rep, n := w.researched(bridgeSpanish); n != 0 || rep.Claims[0].Match == nil {
		t.Errorf("the translation beside factbot web: %d research calls, match %+v; want an answer from the first check", n, rep.Claims[0].Match)
	}
}
