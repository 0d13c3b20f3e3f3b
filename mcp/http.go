package mcp

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the Streamable HTTP transport is served.
const Path = "/mcp"

// SessionTimeout closes an HTTP session idle for this long.
const SessionTimeout = time.Hour

// HTTPHandler serves s over Streamable HTTP. With a token, every request
// must carry it, "Authorization: Bearer <token>", or is answered 401
// (compared in constant time); without one, every request is served, which
// LoopbackOnly keeps to loopback addresses. The SDK refuses requests to a
// loopback address that name another host (DNS rebinding), and requests
// from another origin in a browser are refused.
func HTTPHandler(s *sdk.Server, token string, log *slog.Logger) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Logger: log, SessionTimeout: SessionTimeout})
	served := http.NewCrossOriginProtection().Handler(h)
	if token == "" {
		return served
	}
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		// Digests compared in constant time: neither the token's bytes nor
		// its length leak through timing.
		got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
		if !ok || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="factbot"`)
			http.Error(w, "unauthorized: send Authorization: Bearer <FACTBOT_MCP_TOKEN>", http.StatusUnauthorized)
			return
		}
		served.ServeHTTP(w, r)
	})
}

// LoopbackOnly returns an error unless addr (host:port) listens on a
// loopback address only: localhost, 127.0.0.0/8 or ::1. An empty host is
// every interface.
func LoopbackOnly(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("%q is not host:port: %w", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if host == "" {
		host = "every interface"
	}
	return fmt.Errorf("%s is not a loopback address", host)
}
