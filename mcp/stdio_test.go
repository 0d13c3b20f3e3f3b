package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// Over stdio, a line that is not JSON gets a parse error, one that is not
// a JSON-RPC message, a batch or a line over MaxLine an invalid request,
// and the session goes on: the request after them is answered.
func TestStdioBadLines(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- NewServer(Options{Checks: &fakeChecks{}}).Run(ctx, StdioTransport(inR, outW))
		outW.Close()
	}()
	go func() {
		for _, line := range []string{
			`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`this is not JSON`,
			`{"jsonrpc":"2.0","id":2,"method":`,
			``,
			`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
			`{"id":4,"answer":42}`,
			`{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"` + strings.Repeat("x", MaxLine) + `"}}`,
			`{"jsonrpc":"2.0","id":6,"method":"tools/list"}`,
		} {
			if _, err := io.WriteString(inW, line+"\n"); err != nil {
				return
			}
		}
	}()
	type answer struct {
		ID     any
		Code   int  // the error's, 0 for a result
		Result bool // has a result
	}
	var got []answer
	var tools string // the answer to tools/list
	r := bufio.NewReader(outR)
	for len(got) < 7 {
		line, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		var m struct {
			ID     any             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Code int `json:"code"`
			} `json:"error"`
		}
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		a := answer{ID: m.ID, Result: m.Result != nil}
		if m.ID == 6.0 {
			tools = string(m.Result)
		}
		if m.Error != nil {
			a.Code = m.Error.Code
		}
		got = append(got, a)
	}
	want := []answer{
		{ID: 1.0, Result: true},
		{ID: nil, Code: -32700},
		{ID: nil, Code: -32700},
		{ID: nil, Code: -32600},
		{ID: 4.0, Code: -32600},
		{ID: nil, Code: -32600},
		{ID: 6.0, Result: true},
	}
	// The SDK answers initialize on its own goroutine; the filter answers
	// the bad lines as it reads them: in any order.
	byID := cmpopts.SortSlices(func(a, b answer) bool { return fmt.Sprint(a) < fmt.Sprint(b) })
	if diff := cmp.Diff(want, got, byID); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	if !strings.Contains(tools, `"check"`) {
		t.Errorf("tools/list after the bad lines: %q", tools)
	}
	inW.Close()
	if err := <-done; err != nil && err != io.EOF {
		t.Errorf("the session ended with %v", err)
	}
}
