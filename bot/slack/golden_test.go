package slack_test

import (
	"encoding/json"
	"flag"
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/bot/slack"
	"github.com/factbot-dev/factbot/internal/goldentest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// The Block Kit of a report, in three of the catalogs' languages, is
// testdata/render/LANG.golden.json (go test -update rewrites them).
func TestRenderGolden(t *testing.T) {
	for _, lang := range []string{"en", "es", "ar"} {
		blocks, fallback := slack.Render(bottest.GoldenMessage(lang))
		got, err := json.MarshalIndent(map[string]any{"text": fallback, "blocks": blocks}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "render", lang+".golden.json")
		goldentest.Golden(t, golden, append(got, '\n'), *update)
	}
}
