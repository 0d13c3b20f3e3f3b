package factcheck_test

import (
	"context"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/factcheck"
	fct "github.com/factbot-dev/factbot/factcheck/factchecktest"
)

// The language the extraction names reaches the report, each claim, and
// the research prompt: the reasoning in it, the searches in it and in
// English.
func TestClaimLanguageReachesResearch(t *testing.T) {
	m := &fct.Model{Handle: func(req *factcheck.ModelRequest) (*factcheck.ModelResponse, error) {
		if req.Tools[0].Name == factcheck.ToolSubmitClaims {
			return fct.Call(factcheck.ToolSubmitClaims, map[string]any{"language": "ES",
				"claims":        []map[string]string{{"claim": "La Gran Muralla se ve desde el espacio", "span": "La Gran Muralla se ve desde el espacio"}},
				"not_checkable": []map[string]string{{"span": "¡Qué bonita!", "reason": "una opinión"}}}), nil
		}
		return fct.Call("submit_verdict", fct.Verdict{Verdict: "unverifiable", Confidence: "low", Reasoning: "Sin pruebas."}), nil
	}}
	var claims []factcheck.ExtractedClaim
	rep, err := checker(m).Check(context.Background(), factcheck.Input{Text: "La Gran Muralla se ve desde el espacio. ¡Qué bonita!",
		Progress: func(e factcheck.Event) {
			if e.Kind == factcheck.EventClaims {
				claims = e.Claims
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Language != "es" || len(claims) != 1 || claims[0].Language != "es" {
		t.Errorf("report language %q, claims %+v; want es on both", rep.Language, claims)
	}
	research := m.Research()
	if len(research) < 2 {
		t.Fatalf("%d research requests", len(research))
	}
	prompt := fct.FirstUserText(research[1])
	if want := "write the reasoning in Spanish, and search both in Spanish and in English"; !strings.Contains(prompt, want) {
		t.Errorf("research prompt %q does not say %q", prompt, want)
	}
}
