package search

import (
	"context"
	"fmt"
	"strings"
)

// DefaultMaxResults is the number of results asked for when max <= 0.
const DefaultMaxResults = 5

// SingleSearcher adapts one Provider to the engine's Searcher interface.
type SingleSearcher struct {
	p Provider
}

// Single wraps p so that it answers with a *Response.
func Single(p Provider) *SingleSearcher { return &SingleSearcher{p: p} }

// Search runs the query on the provider and de-duplicates its results,
// dropping those the query's Restriction does not allow.
func (s *SingleSearcher) Search(ctx context.Context, q Query) (*Response, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return nil, fmt.Errorf("empty search query")
	}
	if q.Max <= 0 {
		q.Max = DefaultMaxResults
	}
	query, max := q.Text, q.Max
	res, err := s.p.Search(ctx, q)
	if err != nil {
		return nil, err
	}
	res, late, excluded := q.Restriction.Filter(res)
	res = Dedupe(tagProvider(res, s.p.Name()))
	if len(res) > max {
		res = res[:max]
	}
	return &Response{Query: query, Results: res, Provider: s.p.Name(), Notes: restrictionNotes(s.p.Name(), late, excluded)}, nil
}

// restrictionNotes says what a Restriction dropped from a provider's
// answer.
func restrictionNotes(provider string, late, excluded int) []string {
	var notes []string
	if late > 0 {
		notes = append(notes, fmt.Sprintf("%s: dropped %d result(s) published after the as-of date", provider, late))
	}
	if excluded > 0 {
		notes = append(notes, fmt.Sprintf("%s: dropped %d result(s) from excluded sites", provider, excluded))
	}
	return notes
}

func tagProvider(res []Result, name string) []Result {
	for i := range res {
		if res[i].Provider == "" {
			res[i].Provider = name
		}
	}
	return res
}
