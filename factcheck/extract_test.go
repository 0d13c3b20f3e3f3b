package factcheck

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindSpan(t *testing.T) {
	text := "La tour Eiffel mesure 330 mètres. Elle  fut construite en 1889. La tour Eiffel mesure 330 mètres."
	for _, tc := range []struct {
		span       string
		cursor     int
		start, end int
	}{
		{"La tour Eiffel mesure 330 mètres.", 0, 0, len("La tour Eiffel mesure 330 mètres.")},
		{"La tour Eiffel mesure 330 mètres.", 10, strings.LastIndex(text, "La tour"), len(text)},
		{"elle fut construite en 1889", 0, strings.Index(text, "Elle"), strings.Index(text, " 1889") + 5},
		{"construite en 1890", 0, -1, -1},
		{"", 0, -1, -1},
	} {
		s, e := findSpan(text, tc.span, tc.cursor)
		if s != tc.start || e != tc.end {
			t.Errorf("findSpan(%q, %d) = %d, %d; want %d, %d", tc.span, tc.cursor, s, e, tc.start, tc.end)
		}
	}
}

func TestExtractKeepsOnlyTheUsersLinks(t *testing.T) {
	text := "Per https://who.int/report the vaccine is safe (see also nhs.uk/vaccines)."
	m := scriptedExtraction(`{"claims":[{"claim":"The vaccine is safe according to https://who.int/report, NHS.uk/vaccines and https://invented.example/, HTTPS://evil.example/x, evil.example/login and www.evil.example","span":"the vaccine is safe"}]}`)
	x, err := (&Checker{Model: m}).Extract(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.Claims[0].Claim, "The vaccine is safe according to https://who.int/report, NHS.uk/vaccines and [link removed], [link removed], [link removed] and [link removed]"; got != want {
		t.Errorf("claim = %q, want %q", got, want)
	}
}

// scriptedExtraction answers every request with one submit_claims call.
func scriptedExtraction(args string) Model {
	return modelFunc(func(*ModelRequest) (*ModelResponse, error) {
		return &ModelResponse{Message: Message{Role: RoleModel, ToolCalls: []ToolCall{{ID: "1", Name: ToolSubmitClaims, Args: []byte(args)}}}}, nil
	})
}

type modelFunc func(*ModelRequest) (*ModelResponse, error)

func (f modelFunc) Name() string { return "func" }

func (f modelFunc) Generate(_ context.Context, req *ModelRequest) (*ModelResponse, error) {
	return f(req)
}

func TestExtractClaimsAsText(t *testing.T) {
	text := "The Eiffel Tower is 330 m tall. I love it."
	calls := 0
	m := modelFunc(func(req *ModelRequest) (*ModelResponse, error) {
		calls++
		if req.ToolMode != ToolRequired || len(req.Allowed) != 1 || req.Allowed[0] != ToolSubmitClaims {
			t.Errorf("request mode %q allowed %v, want submit_claims required", req.ToolMode, req.Allowed)
		}
		return &ModelResponse{Message: Message{Role: RoleModel, Text: "```json\n" +
			`{"claims":[{"claim":"The Eiffel Tower is 330 m tall.","span":"The Eiffel Tower is 330 m tall."}],"not_checkable":[{"span":"I love it.","reason":"opinion"}]}` + "\n```"}}, nil
	})
	x, err := (&Checker{Model: m}).Extract(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	want := []ExtractedClaim{{Claim: "The Eiffel Tower is 330 m tall.", Span: "The Eiffel Tower is 330 m tall.", Start: 0, End: 31}}
	if diff := cmp.Diff(want, x.Claims); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if len(x.NotCheckable) != 1 || calls != 1 {
		t.Errorf("not checkable %+v after %d calls, want one after one call", x.NotCheckable, calls)
	}
}

// Two failed attempts end extraction; a single statement is then checked whole.
func TestExtractFailsTwiceThenWhole(t *testing.T) {
	calls := 0
	m := modelFunc(func(req *ModelRequest) (*ModelResponse, error) {
		calls++
		return &ModelResponse{Message: Message{Role: RoleModel, Text: "I cannot."}}, nil
	})
	x, err := (&Checker{Model: m}).Extract(context.Background(), "Water boils at 100 °C.")
	if err != nil {
		t.Fatal(err)
	}
	if calls != extractAttempts || len(x.Claims) != 1 || x.Claims[0].Claim != "Water boils at 100 °C." {
		t.Errorf("%d calls, claims %+v; want %d calls and the input as one claim", calls, x.Claims, extractAttempts)
	}
	if _, err := (&Checker{Model: m}).Extract(context.Background(), "Water boils at 100 °C. Ice melts at 0 °C."); err == nil {
		t.Error("two statements without a usable extraction did not fail")
	}
}
