package evidence

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The words around a quote that may turn it are found in each language of
// the catalogs, and none are found around a quote in a plain sentence.
func TestCueAdded(t *testing.T) {
	for _, tc := range []struct {
		lang, sentence, quote, want string
	}{
		{"en", "The ministry denies reports that the school closed in 2019.", "the school closed in 2019", "denies"},
		{"en", "The school isn't closed, the mayor said.", "the school", "isnt"},
		{"en", "The school closed in 2019 after the audit.", "the school closed in 2019", ""},
		{"en", "It is not visible from the Moon.", "It is not visible from the Moon", ""},
		{"es", "El ministerio niega que la escuela cerrara en 2019.", "la escuela cerrara en 2019", "niega"},
		{"es", "Según el alcalde, la escuela cerró en 2019.", "la escuela cerró en 2019", "según"},
		{"es", "La escuela cerró en 2019 por falta de alumnos.", "La escuela cerró en 2019", ""},
		{"pt", "O ministério negou que a escola fechou em 2019.", "a escola fechou em 2019", "negou"},
		{"fr", "Le ministère dément que l'école ait fermé en 2019.", "l'école ait fermé en 2019", "dément"},
		{"fr", "L'école aurait fermé en 2019, selon le maire.", "fermé en 2019 le maire", "aurait"},
		{"de", "Das Ministerium bestreitet, dass die Schule 2019 geschlossen wurde.", "die Schule 2019 geschlossen wurde", "bestreitet"},
		{"de", "Die Schule wurde laut dem Bürgermeister 2019 geschlossen.", "Die Schule wurde", "laut"},
		{"zh", "教育部否认该校于2019年关闭。", "该校于2019年关闭", "否认"},
		{"zh", "據報導，該校於2019年關閉。", "該校於2019年關閉", "據報"},
		{"zh", "该校于2019年因学生不足而关闭。", "该校于2019年", ""},
		{"ja", "文部科学省は学校が2019年に閉鎖されたという報道を否定した。", "学校が2019年に閉鎖された", "否定"},
		{"ja", "市長によると、学校は2019年に閉鎖された。", "学校は2019年に閉鎖された", "によると"},
		{"ja", "学校は2019年に閉鎖されていない。", "学校は2019年に閉鎖されて", "ない"},
		{"ar", "نفت وزارة التعليم أن المدرسة أغلقت في عام 2019.", "المدرسة أغلقت في عام 2019", "نفت"},
		{"ar", "وقال مسؤول إن المدرسة أغلقت في عام 2019.", "المدرسة أغلقت في عام 2019", "قال"},
		{"ar", "أغلقت المدرسة في عام 2019 بسبب نقص الطلاب.", "أغلقت المدرسة في عام 2019", ""},
		{"hi", "मंत्रालय ने उन खबरों का खंडन किया कि स्कूल 2019 में बंद हो गया था।", "स्कूल 2019 में बंद हो गया था", "खंडन"},
		{"hi", "अधिकारियों के अनुसार स्कूल 2019 में बंद हो गया था।", "स्कूल 2019 में बंद हो गया था", "अनुसार"},
		{"hi", "स्कूल 2019 में बंद नहीं हुआ था।", "स्कूल 2019 में बंद", "नहीं"},
	} {
		if got := CueAdded(tc.sentence, tc.quote); got != tc.want {
			t.Errorf("%s: CueAdded(%q, %q) = %q, want %q", tc.lang, tc.sentence, tc.quote, got, tc.want)
		}
	}
}

// Every language of the catalogs is detected as itself, so that its cue
// list applies.
func TestCueLang(t *testing.T) {
	got := map[string]string{}
	for lang, text := range map[string]string{
		"en": "The ministry said on Tuesday that the school had been closed since the summer of 2019 because of falling numbers of pupils.",
		"es": "El ministerio dijo el martes que la escuela estaba cerrada desde el verano de 2019 por la caída del número de alumnos.",
		"pt": "O ministério disse na terça-feira que a escola estava fechada desde o verão de 2019 por causa da queda do número de alunos.",
		"fr": "Le ministère a déclaré mardi que l'école était fermée depuis l'été 2019 en raison de la baisse du nombre d'élèves.",
		"de": "Das Ministerium sagte am Dienstag, die Schule sei seit dem Sommer 2019 wegen sinkender Schülerzahlen geschlossen.",
		"zh": "教育部周二表示，由于学生人数下降，该校自2019年夏天以来一直关闭。",
		"ja": "文部科学省は火曜日、生徒数の減少により学校が2019年の夏から閉鎖されていると述べた。",
		"ar": "قالت الوزارة يوم الثلاثاء إن المدرسة مغلقة منذ صيف عام 2019 بسبب انخفاض عدد التلاميذ.",
		"hi": "मंत्रालय ने मंगलवार को कहा कि छात्रों की संख्या घटने के कारण स्कूल 2019 की गर्मियों से बंद है।",
	} {
		got[lang], _ = cueLang(text)
	}
	want := map[string]string{"en": "en", "es": "es", "pt": "pt", "fr": "fr", "de": "de", "zh": "zh", "ja": "ja", "ar": "ar", "hi": "hi"}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("cueLang (-got +want):\n%s", d)
	}
	if lang, _ := cueLang("Il ministero ha detto martedì che la scuola era chiusa dall'estate del 2019."); lang != "" {
		t.Errorf("Italian detected as %q, a language with cue words", lang)
	}
}
