package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/factbot-dev/factbot/eval"
	"github.com/factbot-dev/factbot/factcheck"
	"github.com/factbot-dev/factbot/factcheck/gemini/geminitest"
	"github.com/factbot-dev/factbot/search"
)

// eval --knowledge-store researches each claim in its own documents of
// AVeriTeC's knowledge store: no search provider or page is reached (the
// fake Tavily fails the test if asked), the claim's date and the
// leak-free rules hold, and the verdicts cite only store URLs.
func TestEvalKnowledgeStore(t *testing.T) {
	var mu sync.Mutex
	var texts []string
	w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
		mu.Lock()
		texts = append(texts, r.AllText())
		mu.Unlock()
		claim0 := strings.Contains(r.FirstUserText(), "library")
		switch {
		case r.Turns() == 0 && claim0:
			return searchCall("library approved by votes in March")
		case r.Turns() == 0:
			return searchCall("river length")
		case r.Turns() == 1 && claim0:
			return readCall("https://council.example/minutes")
		case claim0:
			return verdictReply("supported", "high", "The minutes record the vote.", map[string]any{
				"source_url": "https://council.example/minutes", "source_title": "Minutes", "supports": true,
				"quote_or_summary": "On 4 March 2019 the council approved the new library"})
		}
		return verdictReply("contradicted", "high", "Another river is longer.", map[string]any{
			"source_url": "https://geo.example/rivers", "source_title": "Rivers", "supports": false,
			"quote_or_summary": "The Great River is 410 km long"})
	})
	web := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		t.Errorf("a search provider was asked: %s", r.URL)
	}))
	t.Cleanup(web.Close)
	w.env["TAVILY_API_KEY"], w.env["FACTBOT_TAVILY_URL"], w.env["FACTBOT_SEARCH"] = "tvly-test", web.URL, "tavily"
	dataset := filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json")
	store := filepath.Join("..", "..", "eval", "testdata", "averitec_store")
	stdout, stderr, code := w.run("eval", "--dataset", dataset, "--knowledge-store", store, "--limit", "2", "--json", "--quiet", "--concurrency", "1")
	if code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	var s eval.Summary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Setup.Search) != 1 || !strings.HasPrefix(s.Setup.Search[0], "knowledge store ") || s.Setup.FactChecks || !s.Setup.LeakFree {
		t.Errorf("setup %+v", s.Setup)
	}
	if s.Accuracy != 1 || s.CitedURLs != 2 || s.CitedRetrieved != 2 || s.QuotesFound != 2 || s.Undated != 0 {
		t.Errorf("accuracy %.2f, cited %d, retrieved %d, quotes found %d, undated %d; want every store citation retrieved and found",
			s.Accuracy, s.CitedURLs, s.CitedRetrieved, s.QuotesFound, s.Undated)
	}
	for _, r := range s.Results {
		for _, e := range r.Evidence {
			if e.SourceURL != "https://council.example/minutes" && e.SourceURL != "https://geo.example/rivers" {
				t.Errorf("claim %s cites %s, not in its store", r.ID, e.SourceURL)
			}
		}
	}
	for _, text := range texts {
		if strings.Contains(text, "PolitiFact rates") {
			t.Error("the store's fact-checking article reached the model")
		}
	}
}

// FACTBOT_CORPUS with FACTBOT_SEARCH=corpus: check searches and reads the
// team's own folder and cites its files, with no web at all.
func TestCheckCorpus(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // the index's folder (os.UserCacheDir)
	if err := os.WriteFile(filepath.Join(dir, "wall.md"), []byte("# Wall facts\n\nAstronauts report that the Great Wall of China is not visible from space with the naked eye.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := (&url.URL{Scheme: "file", Path: filepath.Join(dir, "wall.md")}).String()
	w := newWorld(t, wallFirst(func(r *geminitest.Request) geminitest.Reply {
		switch r.Turns() {
		case 0:
			return searchCall("great wall visible from space")
		case 1:
			return readCall(doc)
		}
		return verdictReply("contradicted", "high", "The team's notes say it is not visible.", map[string]any{
			"source_url": doc, "source_title": "Wall facts", "supports": false,
			"quote_or_summary": "the Great Wall of China is not visible from space with the naked eye"})
	}))
	w.env["FACTBOT_CORPUS"], w.env["FACTBOT_SEARCH"] = dir, "corpus"
	rep, _ := w.checkJSON("--no-store", wallClaim)
	v := rep.Claims[0]
	if v.Verdict != factcheck.Contradicted || len(v.Evidence) != 1 || v.Evidence[0].SourceURL != doc || !v.Evidence[0].QuoteFound {
		t.Errorf("verdict %s, evidence %+v; want contradicted citing %s with its quote found", v.Verdict, v.Evidence, doc)
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		t.Errorf("the corpus folder holds %d files after the check, want its one file: the index lives elsewhere", len(es))
	}
	if _, err := os.Stat(search.DefaultCorpusIndex(dir)); err != nil || !strings.HasPrefix(search.DefaultCorpusIndex(dir), cache) {
		t.Errorf("the corpus was not indexed in the cache folder %s: %v", cache, err)
	}
}

// A claim whose file in the knowledge store is missing, malformed or not
// a regular file is an error of that claim, in the summary's errors and
// results, before the model is asked about it; the other claims are
// checked, and a FIFO hangs nothing.
func TestEvalKnowledgeStoreClaimErrors(t *testing.T) {
	src := filepath.Join("..", "..", "eval", "testdata", "averitec_store", "0.json")
	claim0, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		make  func(path string) error
		error string
	}{
		{"missing", func(string) error { return nil }, "no such file"},
		{"malformed", func(p string) error {
			return os.WriteFile(p, []byte("{\"url\": \"https://x.example/\", \"url2text\": [\n"), 0o644)
		}, "line 1"},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file"},
		{"link out", func(p string) error { return os.Symlink("/proc/self/environ", p) }, "1.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := t.TempDir()
			if err := os.WriteFile(filepath.Join(store, "0.json"), claim0, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := tc.make(filepath.Join(store, "1.json")); err != nil {
				t.Fatal(err)
			}
			var mu sync.Mutex
			var other []string
			w := newWorld(t, func(r *geminitest.Request) geminitest.Reply {
				if !strings.Contains(r.FirstUserText(), "library") {
					mu.Lock()
					other = append(other, r.FirstUserText())
					mu.Unlock()
				}
				return verdictReply("supported", "high", "The minutes record the vote.", map[string]any{
					"source_url": "https://council.example/minutes", "source_title": "Minutes", "supports": true,
					"quote_or_summary": "On 4 March 2019 the council approved the new library"})
			})
			dataset := filepath.Join("..", "..", "eval", "testdata", "averitec_dev_fixture.json")
			done := make(chan struct{})
			var stdout, stderr string
			var code int
			go func() {
				defer close(done)
				stdout, stderr, code = w.run("eval", "--dataset", dataset, "--knowledge-store", store, "--limit", "2", "--json", "--quiet", "--concurrency", "1")
			}()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("eval hung")
			}
			if code == exitOK || !strings.Contains(stderr, "1 of 2 claims could not be checked") {
				t.Errorf("exit %d, stderr %q; want 1 of 2 claims failed", code, stderr)
			}
			var s eval.Summary
			if err := json.Unmarshal([]byte(stdout), &s); err != nil {
				t.Fatal(err)
			}
			if s.Errors != 1 || s.Scored != 1 {
				t.Errorf("errors %d, scored %d; want 1 and 1", s.Errors, s.Scored)
			}
			var msg string
			for _, r := range s.Results {
				if r.ID == "1" {
					msg = r.Error
				}
			}
			if !strings.Contains(msg, tc.error) {
				t.Errorf("claim 1's error %q, want it to say %q", msg, tc.error)
			}
			if len(other) > 0 {
				t.Errorf("the model was asked about a claim without its store: %q", other)
			}
		})
	}
}
