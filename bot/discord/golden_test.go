package discord

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/factbot-dev/factbot/bot/bottest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// The content, embeds and buttons of a report, in three of the catalogs'
// languages, are testdata/render/LANG.golden.json (go test -update
// rewrites them).
func TestRenderGolden(t *testing.T) {
	for _, lang := range []string{"en", "fr", "ja"} {
		got, err := json.MarshalIndent(render(bottest.GoldenMessage(lang)), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "render", lang+".golden.json")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)+"\n"); diff != "" {
			t.Errorf("%s (-want +got):\n%s", golden, diff)
		}
	}
}
