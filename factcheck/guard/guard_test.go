package guard

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAgreeTwins is the table of twins: claims an embedding puts close
// together, and whether the guard lets one answer for the other.
func TestAgreeTwins(t *testing.T) {
	const bridge = "The Golden Gate Bridge carries 400 cars a day"
	tests := []struct {
		name string
		a, b string
		why  Reason // "" when they agree
	}{
		// Paraphrases and translations that agree.
		{"paraphrase", bridge, "Every day, 400 cars cross the Golden Gate Bridge", ""},
		{"question", "The Eiffel Tower is located in Paris", "Is it true that the Eiffel Tower stands in Paris?", ""},
		{"spanish", bridge, "El puente Golden Gate soporta 400 coches al día", ""},
		{"french", "The Eiffel Tower is 330 metres tall", "La tour Eiffel mesure 330 mètres", ""},
		{"german", "Germany spent 4 billion euros on it", "Germany gab dafür 4 Milliarden Euro aus", ""},
		{"spanish long scale", "The plan costs 4 billion dollars", "El plan cuesta 4.000 millones de dólares", ""},
		{"digits and words", "The city has 4 million people", "The city has 4,000,000 people", ""},
		{"percent sign and word", "Unemployment fell to 40% in Spain", "Unemployment in Spain fell to 40 percent", ""},
		{"iso date", "The law passed on 5 March 2020", "The law passed on 2020-03-05", ""},
		{"french negation both", "The Eiffel Tower is not in Lyon", "La tour Eiffel ne se trouve pas à Lyon", ""},
		{"contraction", "The vaccine does not contain mercury", "The vaccine doesn't contain mercury", ""},
		{"portuguese no is not a negation", "The Amazon river flows in Brazil", "O rio Amazonas corre no Brasil", ""},
		{"accents", "The mayor of Bogotá resigned", "The mayor of Bogota resigned", ""},
		{"may the verb", "Coffee may cause cancer", "Drinking coffee may cause cancer", ""},

		// Numbers: magnitude, unit, percent against absolute.
		{"400 vs 4,000", bridge, "The Golden Gate Bridge carries 4,000 cars a day", Numbers},
		{"4 million vs 4 billion", "The city has 4 million people", "The city has 4 billion people", Numbers},
		{"percent vs absolute", "Unemployment fell by 40% in Spain", "Unemployment fell by 40 in Spain", Numbers},
		{"km vs miles", "The border is 400 km long", "The border is 400 miles long", Numbers},
		{"decimal", "Inflation reached 3.5 percent", "Inflation reached 35 percent", Numbers},
		{"spanish 4.000 vs 400", bridge, "El puente Golden Gate soporta 4.000 coches al día", Numbers},
		{"number missing", bridge, "The Golden Gate Bridge carries cars", Numbers},

		// Dates and years.
		{"year", "The bridge opened in 2019", "The bridge opened in 2020", Dates},
		{"month", "The law passed on 5 March 2020", "The law passed on 5 April 2020", Dates},
		{"day", "The law passed on 5 March 2020", "The law passed on 6 March 2020", Numbers},
		{"french month", "La loi a été votée le 5 mars 2020", "The law passed on 5 May 2020", Dates},

		// Negation.
		{"negation", "The Eiffel Tower is located in Paris", "The Eiffel Tower is not located in Paris", Negation},
		{"never", "Einstein failed mathematics at school", "Einstein never failed mathematics at school", Negation},
		{"spanish negation", "The vaccine contains mercury", "La vacuna no contiene mercurio", Negation},
		{"german negation", "Der Impfstoff enthält Quecksilber", "Der Impfstoff enthält kein Quecksilber", Negation},

		// Named entities.
		{"other city", "The Eiffel Tower is in Paris", "The Eiffel Tower is in Lyon", Entities},
		{"other person", "Biden said inflation is over", "Trump said inflation is over", Entities},
		{"sentence start", "Paris is the capital of France", "Lyon is the capital of France", Entities},
		{"other organisation", "WHO declared the pandemic over", "CDC declared the pandemic over", Entities},
		{"spanish other city", "The Eiffel Tower is in Paris", "La torre Eiffel está en Lyon", Entities},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, pair := range [][2]string{{tt.a, tt.b}, {tt.b, tt.a}} {
				ok, why := Agree(pair[0], pair[1])
				if diff := cmp.Diff(tt.why, why); diff != "" || ok != (tt.why == "") {
					t.Errorf("Agree(%q, %q) = %v, %q; want reason %q (-want +got):\n%s", pair[0], pair[1], ok, why, tt.why, diff)
				}
			}
		})
	}
}

func TestAlike(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"brazil", "brasil", true},
		{"amazon", "amazonas", true},
		{"austria", "australia", false},
		{"iran", "iraq", false},
		{"paris", "paris", true},
		{"london", "londres", false},
	}
	for _, tt := range tests {
		if got := alike(tt.a, tt.b); got != tt.want {
			t.Errorf("alike(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
