package search

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestToUTF8(t *testing.T) {
	pad := "<!-- " + strings.Repeat("x", 2000) + " -->" // past the 1 KiB HTML prescan
	tests := []struct {
		name, contentType, body, want string
	}{
		{"header", "text/html; charset=iso-8859-1", "caf\xe9", "café"},
		{"meta in the first kilobyte", "text/html", `<meta charset="iso-8859-1">caf` + "\xe9", `<meta charset="iso-8859-1">café`},
		{"meta past the first kilobyte", "text/html", pad + `<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">` + "\x93quoted\x94", pad + `<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">“quoted”`},
		{"undeclared UTF-8 past the first kilobyte", "text/html", pad + "it’s “quoted”", pad + "it’s “quoted”"},
		{"undeclared and not UTF-8", "text/html", pad + "caf\xe9", pad + "café"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := toUTF8([]byte(tt.body), tt.contentType)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(got), tt.want); diff != "" {
				t.Errorf("toUTF8 (-got +want):\n%s", diff)
			}
		})
	}
}
