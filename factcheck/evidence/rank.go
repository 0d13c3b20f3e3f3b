package evidence

import "github.com/factbot-dev/factbot/internal/textrank"

// The Ranker: what the model reads of a page or a snippet, and what the
// compact transcript keeps, are the passages that best answer the plan's
// questions by BM25 over the text's own sentences, ranked by the module's
// one ranker (internal/textrank), which the knowledge store and the team
// corpus use too.

// Ranker scores the sentences of one text against queries.
type Ranker = textrank.Ranker

// Query is a question's distinct tokens.
type Query = textrank.Query

// Hit is a sentence's score for one query.
type Hit = textrank.Hit

// NewRanker indexes the sentences of one text.
func NewRanker(sents []string) *Ranker { return textrank.NewRanker(sents) }

// NewQuery makes the query of a question.
func NewQuery(s string) Query { return textrank.NewQuery(s) }

// rankTokens returns the tokens of s for ranking.
func rankTokens(s string) []string { return textrank.Tokens(s) }

// textTokens returns the tokens of s: rankTokens when ranking is set,
// else every word kept (for cue words).
func textTokens(s string, ranking bool) []string {
	if ranking {
		return textrank.Tokens(s)
	}
	return textrank.Words(s)
}
