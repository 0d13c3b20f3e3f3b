package main

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/factbot-dev/factbot/mcp"
)

// factbot mcp over stdio answers a line that is not JSON with a parse
// error and an oversized one with an invalid request, each without an id,
// and the session goes on: the next request is answered, and the process
// ends with its input, status 0.
func TestMCPStdioBadLines(t *testing.T) {
	var w *world
	w = newWorld(t, mcpModel(&w))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	a := &app{stdin: inR, stdout: outW, stderr: &stderr, getenv: func(k string) string { return w.env[k] }}
	done := make(chan int, 1)
	go func() {
		done <- run(t.Context(), a, []string{"mcp"})
		outW.Close()
	}()
	r := bufio.NewReader(outR)
	exchange := func(line string) map[string]any {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
		b, err := r.ReadBytes('\n')
		if err != nil {
			t.Fatalf("no answer to %.60q: %v\nstderr:\n%s", line, err, stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%q: %v", b, err)
		}
		return m
	}
	code := func(m map[string]any) any {
		if e, ok := m["error"].(map[string]any); ok {
			return e["code"]
		}
		return nil
	}
	if m := exchange(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	if m := exchange(`Content-Length: 52`); code(m) != -32700.0 || m["id"] != nil {
		t.Errorf("a line that is not JSON: %v, want a parse error (-32700) without id", m)
	}
	if m := exchange(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", mcp.MaxLine) + `"}}`); code(m) != -32600.0 || m["id"] != nil {
		t.Errorf("a line over %d bytes: %v, want an invalid request (-32600) without id", mcp.MaxLine, m)
	}
	if m := exchange(`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`); m["id"] != 3.0 || m["result"] == nil {
		t.Errorf("tools/list after the bad lines: %v", m)
	}
	inW.Close()
	if c := <-done; c != exitOK {
		t.Errorf("factbot mcp: exit %d, stderr:\n%s", c, stderr.String())
	}
}
