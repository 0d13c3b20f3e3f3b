package factcheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRelevantExcerpt(t *testing.T) {
	paras := []string{"Opening paragraph about the site.", strings.Repeat("Unrelated filler text. ", 20), "The Eiffel Tower is 330 metres tall since 2022.", strings.Repeat("More filler. ", 30)}
	text := strings.Join(paras, "\n")
	got, cut := relevantExcerpt(text, "How tall is the Eiffel Tower in metres?", 120)
	if !cut {
		t.Fatal("a long text was not excerpted")
	}
	if diff := cmp.Diff("Opening paragraph about the site.\n…\nThe Eiffel Tower is 330 metres tall since 2022.", got); diff != "" {
		t.Errorf("excerpt (-want +got):\n%s", diff)
	}
	if short, cut := relevantExcerpt("short", "x", 100); short != "short" || cut {
		t.Errorf("short text changed: %q %v", short, cut)
	}
}
