package discord

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/internal/goldentest"
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
		goldentest.Golden(t, golden, append(got, '\n'), *update)
	}
}
