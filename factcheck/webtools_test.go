package factcheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestShowPassages: a long page is shown as the passages that best answer
// the questions, each with its neighbours, ID-tagged, a repeated sentence
// once; a short one whole.
func TestShowPassages(t *testing.T) {
	r := newLibrary((&Checker{}).now, "")
	qs := rankQueries([]string{"How tall is the Eiffel Tower in metres?"}, "")
	text := "Opening paragraph about the site.\n" + strings.Repeat("Unrelated filler text. ", 20) +
		"\nIt was built in 1889. The Eiffel Tower is 330 metres tall since 2022. Its antenna was replaced.\n" + strings.Repeat("More filler. ", 30)
	d, ranges := r.remember("https://example.org/eiffel", "Eiffel", "read", []seenText{{QuoteOnPage, 0, text}}, nil)
	got, cut := r.show(d, ranges[0], 160, true, qs)
	if !cut {
		t.Fatal("a long text was not excerpted")
	}
	want := "[p1.22] It was built in 1889. [p1.23] The Eiffel Tower is 330 metres tall since 2022. [p1.24] Its antenna was replaced."
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("excerpt (-want +got):\n%s", diff)
	}
	d, ranges = r.remember("https://example.org/short", "", "read", []seenText{{QuoteOnPage, 0, "Short. Page."}}, nil)
	if got, cut := r.show(d, ranges[0], 100, true, qs); got != "[p2.1] Short. [p2.2] Page." || cut {
		t.Errorf("short text = %q, %v; want it whole", got, cut)
	}
}
