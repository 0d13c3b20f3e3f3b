package discord

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/factbot-dev/factbot/bot"
	"github.com/factbot-dev/factbot/bot/bottest"
	"github.com/factbot-dev/factbot/internal/goldentest"
)

// TestRenderStances: each stance (supports, refutes, context), each place
// a quote is found, a search summary and a record saved before stances, as
// a Discord embed (testdata/stances.golden).
func TestRenderStances(t *testing.T) {
	got, err := json.MarshalIndent(render(bot.English.RenderReport(bottest.StancesReport(), "ID1")), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	goldentest.Golden(t, filepath.Join("testdata", "stances.golden"), got, *update)
}
