package store

import (
	"testing"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The Eiffel Tower is 330 m tall.", "the eiffel tower is 330 m tall"},
		{"  the   EIFFEL tower\tis 330 m tall!!! ", "the eiffel tower is 330 m tall"},
		{"“The Eiffel Tower” is 330 m tall…", "the eiffel tower is 330 m tall"},
		{"ﬁnancial ＧＤＰ grew", "financial gdp grew"}, // NFKC: ligature, full width
		{"Straße", "strasse"}, // case folding
		{"GDP grew 3.5% in 2023", "gdp grew 3.5% in 2023"},
		{"GDP grew 35% in 2023", "gdp grew 35% in 2023"},
		{"It was -5 degrees", "it was -5 degrees"},
		{"well-known fact", "well known fact"},
		{"1,000 people at 10:30", "1,000 people at 10:30"},
		{"U.S. economy", "u s economy"},
		{"zero\u200bwidth", "zerowidth"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if Normalize("GDP grew 3.5%") == Normalize("GDP grew 35%") {
		t.Error("3.5% and 35% share a cache key")
	}
}
