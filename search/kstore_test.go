package search

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestKnowledgeStore(t *testing.T) {
	k, err := NewKnowledgeStore(filepath.Join("..", "eval", "testdata", "averitec_store"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	resp, err := k.Search(ctx, Query{Text: "library approved by votes in March", Max: 5, Claim: "0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Results) < 2 || resp.Results[0].URL != "https://council.example/minutes" || !strings.Contains(resp.Results[0].Snippet, "seven votes to two") {
		t.Fatalf("results = %+v; want the minutes first, with their passage", resp.Results)
	}
	// A dated, leak-free check: documents carry the claim's date, the
	// fact-checker is excluded.
	day := time.Date(2019, 3, 12, 0, 0, 0, 0, time.UTC)
	rs := Restriction{Before: day, ExcludeSites: FactCheckers()}
	resp, err = k.Search(ctx, Query{Text: "library", Max: 5, Restriction: rs, Claim: "0"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range resp.Results {
		if strings.Contains(r.URL, "politifact") || !r.PublishedAt.Equal(day) {
			t.Errorf("result %s published %v; want no fact-checker, each dated %v", r.URL, r.PublishedAt, day)
		}
	}
	p, err := k.ReadPage(ctx, PageRequest{URL: "https://council.example/minutes", Restriction: rs, Claim: "0"})
	if err != nil || !strings.Contains(p.Text, "seven votes to two") || p.Published != "2019-03-12" {
		t.Errorf("Read = %+v, %v", p, err)
	}
	if _, err := k.ReadPage(ctx, PageRequest{URL: "https://geo.example/rivers", Restriction: rs, Claim: "0"}); err == nil {
		t.Error("claim 0 read claim 1's document")
	}
	if _, err := k.Search(context.Background(), Query{Text: "x", Max: 5, Claim: "../0"}); err == nil {
		t.Error("a claim id with a path was accepted")
	}
	if _, err := k.Search(context.Background(), Query{Text: "x", Max: 5}); err == nil {
		t.Error("a search with no claim id was answered")
	}
}
