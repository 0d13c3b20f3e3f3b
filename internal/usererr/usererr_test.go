package usererr

import (
	"errors"
	"fmt"
	"testing"
)

func TestMessage(t *testing.T) {
	cause := errors.New("dial tcp: secret internal detail")
	tests := []struct {
		name   string
		err    error
		want   string
		wantOK bool
	}{
		{"user", fmt.Errorf("check: %w", &Error{Msg: "Give me a claim to check.", Err: cause}), "Give me a claim to check.", true},
		{"config", &Config{Var: "GEMINI_API_KEY", Msg: "not set", Hint: "get one at …"}, "GEMINI_API_KEY: not set (get one at …)", true},
		{"internal", fmt.Errorf("search: %w", cause), "", false},
		{"nil", nil, "", false},
	}
	for _, tt := range tests {
		got, ok := Message(tt.err)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("%s: Message = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.wantOK)
		}
	}
	if !IsConfig(fmt.Errorf("wire: %w", &Config{Var: "X"})) || IsConfig(cause) {
		t.Error("IsConfig does not tell configuration errors apart")
	}
	if !errors.Is(&Error{Msg: "x", Err: cause}, cause) {
		t.Error("Error does not unwrap to its cause")
	}
}
