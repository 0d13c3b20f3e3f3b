package discord

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/factcheck"
)

// A source's publisher and rating that span lines are shown on one line,
// and a blank quote is no quote: no empty "> " line, no empty note.
func TestEvidenceFieldOneLineAndBlankQuote(t *testing.T) {
	on := factcheck.QuoteMatch{Place: factcheck.QuoteOnPage}
	tests := []struct {
		name string
		ev   bot.EvidenceView
		want string
	}{
		{
			name: "publisher and rating over lines",
			ev:   bot.EvidenceView{URL: "https://example.org/t", Title: "T", Supports: true, Publisher: "Tour\nEiffel", Rating: "True\n", Quote: "330\nmetres", QuoteFound: true, QuoteMatch: on},
			want: "[source](https://example.org/t)\nTour Eiffel\\: True\n> 330 metres *(quote found on the page)*",
		},
		{
			name: "blank quote",
			ev:   bot.EvidenceView{URL: "https://example.org/t", Title: "T", Supports: true, Quote: " \n ", QuoteFound: true, QuoteMatch: on},
			want: "[source](https://example.org/t)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := evidenceField(bot.Lang{}, tt.ev, 1000)
			if f == nil {
				t.Fatal("no field")
			}
			if diff := cmp.Diff(tt.want, f.Value); diff != "" {
				t.Errorf("field value (-want +got):\n%s", diff)
			}
		})
	}
}
