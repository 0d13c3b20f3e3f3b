package config

import (
	"bytes"
	"fmt"
	"strings"
)

// Reference is the configuration reference, docs/configuration.md, in
// Markdown: every variable of the table with its default, whether it is
// secret and what it is for, by section. TestReference keeps the committed
// file equal to it (go test ./cmd/factbot/config -run TestReference -update
// rewrites it).
func Reference() []byte {
	var b bytes.Buffer
	b.WriteString(`# Configuration

<!-- Generated from the table in cmd/factbot/config/vars.go: do not edit; run
     go test ./cmd/factbot/config -run TestReference -update -->

Everything is configured by environment variables, one table for the whole program (` + "`cmd/factbot/config/vars.go`" + `).
They are read once, at start, and every value that is set is checked: a malformed one stops any command with exit
status 2, naming the variable and where to get a value, as does a missing one that the command needs.
` + "`factbot config`" + ` prints every variable with its value (secrets masked) or its default, what the configuration
enables and what is missing for the rest.

A newcomer needs one variable: ` + "`GEMINI_API_KEY`" + ` (then search goes through Google Search via Gemini). A chat platform
needs its tokens: [Slack](slack.md), [Discord](discord.md).
`)
	for _, s := range sections() {
		fmt.Fprintf(&b, "\n## %s\n\n| variable | default | secret | used for |\n|---|---|---|---|\n", s.name)
		for _, v := range s.vars {
			def, secret := "—", ""
			if v.Default != "" {
				def = "`" + v.Default + "`"
				if strings.Contains(v.Default, " ") || strings.HasSuffix(v.Default, "'s") {
					def = v.Default // words, not a value
				}
			}
			if v.Secret {
				secret = "yes"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", v.Name, def, secret, strings.ReplaceAll(v.Doc, "|", `\|`))
		}
	}
	return b.Bytes()
}
