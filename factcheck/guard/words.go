package guard

import (
	"strings"
	"sync"
)

// The guard's words, in English, Spanish, Portuguese, French, German and
// Italian, folded (lower case, no accents). Built on first use.

// verbMonth reports whether w is an English month name that is also a
// common word ("may", "march"): it is a month only when capitalised.
func verbMonth(w string) bool { return w == "may" || w == "march" }

// monthNames maps a month's name or abbreviation to its number.
var monthNames = sync.OnceValue(func() map[string]int {
	lists := [12]string{
		"january jan enero janvier januar janeiro gennaio",
		"february feb febrero fevrier februar fevereiro febbraio",
		"march marzo mars marz",
		"april apr abril avril aprile",
		"may mayo mai maio maggio",
		"june jun junio juin juni junho giugno",
		"july jul julio juillet juli julho luglio",
		"august aug agosto aout",
		"september sep sept septiembre setiembre septembre setembro settembre",
		"october oct octubre octobre oktober outubro ottobre",
		"november nov noviembre novembre novembro",
		"december dec diciembre decembre dezember dezembro dicembre",
	}
	m := map[string]int{}
	for i, l := range lists {
		for _, w := range strings.Fields(l) {
			m[w] = i + 1
		}
	}
	return m
})

// magnitudes are the words that multiply the number before them; several
// multiply together ("mil millones" is 10⁹). The long scale's "billón"
// (Spanish) is 10¹².
var magnitudes = sync.OnceValue(func() map[string]float64 {
	m := map[string]float64{}
	for v, l := range map[float64]string{
		1e2:  "hundred hundreds",
		1e3:  "thousand thousands k mil mille milles tausend migliaio migliaia",
		1e6:  "million millions mn mio millon millones milhao milhoes millionen milione milioni",
		1e9:  "billion billions bn milliard milliards milliarde milliarden mrd miliardo miliardi bilhao bilhoes",
		1e12: "trillion trillions billon billones trilhao trilhoes billiarde",
	} {
		for _, w := range strings.Fields(l) {
			m[w] = v
		}
	}
	return m
})

// units maps a unit's words (one, or two joined by a space) to one name.
var units = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for u, l := range map[string]string{
		"%":   "percent per_cent por_ciento pour_cent prozent per_cento por_cento porcentaje pourcentage",
		"km":  "km kms kilometer kilometers kilometre kilometres kilometro kilometros kilometri",
		"mi":  "mi mile miles milla millas",
		"m":   "m meter meters metre metres metro metros metri",
		"cm":  "cm centimeter centimeters centimetre centimetres centimetro centimetros",
		"kg":  "kg kilo kilos kilogram kilograms kilogramme kilogrammes kilogramm kilogramo kilogramos chilogrammi",
		"lb":  "lb lbs pound pounds",
		"t":   "ton tons tonne tonnes tonelada toneladas tonnen tonnellate",
		"usd": "dollar dollars usd dolar dolares dollari",
		"eur": "euro euros eur",
		"gbp": "sterling gbp",
		"c":   "c celsius degrees_celsius grados_celsius degres_celsius grad_celsius",
		"f":   "fahrenheit degrees_fahrenheit",
		"yr":  "year years ano anos ans annee annees jahr jahre jahren anno anni",
		"mo":  "month months mes meses mois monat monate mese mesi",
		"d":   "day days dia dias jour jours tag tage tagen giorno giorni",
		"h":   "hour hours hora horas heure heures stunde stunden ora ore",
	} {
		for _, w := range strings.Fields(l) {
			m[strings.ReplaceAll(w, "_", " ")] = u
		}
	}
	return m
})

// negators are the words that deny what a sentence says (French "ne"
// and "n'" alone: "pas" comes with them; English "n't" by its ending).
// Three are words of another language too, and are read by the claim's
// language (notFor): "no" (Portuguese "in the"), "ne" (an Italian
// pronoun) and "mai" (Italian "never", French "May").
var negators = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`not never neither nor none nobody nothing cannot
		nunca jamas ni ninguno ninguna ningun nadie nada sin
		nao nem nenhum nenhuma ninguem sem
		jamais aucun aucune rien sans
		nicht kein keine keinen keinem keiner keines nie niemals weder ohne
		non nessuno nessuna senza`) {
		m[w] = true
	}
	return m
})

// stopWords are words written with a capital letter at the start of a
// sentence that name nothing ("The", "Is", "Es", "La").
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the this that these those it its is are was were be been has have had do does did
		will would can could should may might must there here what who when where why how which every each all some
		many most more less few several no not yes and or but if in on at of for from to by with about after before
		since during i we you he she they my our your his her their true false claim claims
		el la los las un una unos unas es son fue era esta este estos estas eso esa ese hay que quien cuando donde
		como cual cada todo todos todas algunos muchos mas menos y o pero si en de del al por para con sobre desde
		segun verdad cierto
		le les une des est sont etait c'est ce cet cette ces il elle ils elles qui quoi quand ou comment chaque tous
		toutes et mais dans du au aux pour avec sur depuis selon vrai
		der die das ein eine einer eines ist sind war waren es gibt wer was wann wo wie jeder alle und oder aber wenn
		im am vom zum zur mit fur uber seit laut wahr stimmt
		o os um uma e sao era foi esse essa isso ha quem onde cada todos mais menos ou mas se em da das dos no na nos
		nas pelo pela com desde segundo verdade
		il lo gli uno sono era questo questa quello chi dove ogni tutti piu ma nel nella per con su dal dalla vero`) {
		m[w] = true
	}
	return m
})
