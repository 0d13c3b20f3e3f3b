package evidence

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInDocument: a sentence cited from a search snippet or summary that
// the page read (or a PDF page) holds is cited from there, normalised as
// quotes are matched (case, white space, typographic quotes), as the
// document's whole sentence(s); anything else stays as it was cited.
func TestInDocument(t *testing.T) {
	type text struct {
		place Place
		page  int
		text  string
	}
	type want struct {
		First, Last int
		Match       Match
		Quote, Seen string
		Widened     bool
	}
	snippet := "The dam was not built in 1990, the agency says."
	for _, tc := range []struct {
		name  string
		texts []text
		cite  int // the sentence cited by ID, from 0
		want  want
	}{
		{"the page holds the snippet's sentence",
			[]text{{InSnippet, 0, snippet}, {OnPage, 0, "Water levels rose. The dam was not built in 1990, the agency says. More follows."}},
			0, want{2, 2, Match{Place: OnPage}, snippet, snippet, false}},
		{"white space and quotes differ on the page",
			[]text{{InSnippet, 0, "The mayor said “we will   rebuild the bridge” on Monday."}, {OnPage, 0, "The mayor said \"We will rebuild\tthe bridge\" on Monday."}},
			0, want{1, 1, Match{Place: OnPage}, "The mayor said \"We will rebuild\tthe bridge\" on Monday.", "The mayor said “we will   rebuild the bridge” on Monday.", false}},
		{"the snippet cut the page's sentence: widened",
			[]text{{InSnippet, 0, "... the school closed in 2019."}, {OnPage, 0, "The ministry denies reports that the school closed in 2019."}},
			0, want{1, 1, Match{Place: OnPage}, "The ministry denies reports that the school closed in 2019.", "... the school closed in 2019.", true}},
		{"a PDF page holds it",
			[]text{{InSnippet, 0, snippet}, {InPDF, 1, "Cover page of the report."}, {InPDF, 2, "Findings. " + snippet}},
			0, want{3, 3, Match{Place: InPDF, Page: 2}, snippet, snippet, false}},
		{"a search summary the page holds",
			[]text{{InSummary, 0, snippet}, {OnPage, 0, snippet}},
			0, want{1, 1, Match{Place: OnPage}, snippet, snippet, false}},
		{"not on the page: only in the preview",
			[]text{{InSnippet, 0, snippet}, {OnPage, 0, "The dam was built in 1990."}},
			0, want{0, 0, Match{Place: InSnippet}, snippet, "", false}},
		{"too short to be looked for",
			[]text{{InSnippet, 0, "Dam built."}, {OnPage, 0, "Dam built."}},
			0, want{0, 0, Match{Place: InSnippet}, "Dam built.", "", false}},
		{"already on the page",
			[]text{{InSnippet, 0, snippet}, {OnPage, 0, snippet}},
			1, want{1, 1, Match{Place: OnPage}, snippet, "", false}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ps Passages
			for _, x := range tc.texts {
				ps.Add(x.place, x.page, x.text)
			}
			c := InDocument(&ps, Cite(&ps, Ref{Source: 1, First: tc.cite, Last: tc.cite}, "p1"))
			got := want{c.First, c.Last, c.Match, c.Quote, c.Seen, c.Widened}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("InDocument (-want +got):\n%s", diff)
			}
		})
	}
}
