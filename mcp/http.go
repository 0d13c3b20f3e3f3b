package mcp

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Path is where the Streamable HTTP transport is served.
const Path = "/mcp"

// Defaults of HTTPOptions.
const (
	DefaultMaxSessions         = 64
	DefaultMaxSessionsPerToken = 16
	DefaultSessionIdle         = 10 * time.Minute
)

// HTTPOptions configures HTTPHandler.
type HTTPOptions struct {
	// Tokens are the Bearer tokens accepted, one per client. Without one,
	// every request is served, which LoopbackOnly keeps to loopback
	// addresses.
	Tokens []string
	// MaxSessions bounds the open sessions, every client's together
	// (default DefaultMaxSessions); MaxSessionsPerToken those opened with
	// one token, every client together when there is no token (default
	// DefaultMaxSessionsPerToken).
	MaxSessions, MaxSessionsPerToken int
	// SessionIdle closes a session that receives no request for this long
	// (default DefaultSessionIdle).
	SessionIdle time.Duration
	Logger      *slog.Logger
}

// HTTPHandler serves s over Streamable HTTP. Every request whose Origin is
// not the server's own is refused (403), GET included; with tokens, every
// request must carry one, "Authorization: Bearer <token>" (compared in
// constant time), or is answered 401 at once, its body unread, and its
// connection closed. A new session beyond the caps is refused, 503 (every
// client's) or 429 (its token's). The SDK refuses requests to a loopback
// address that name another host (DNS rebinding). Every refusal carries a
// JSON-RPC error without id.
func HTTPHandler(s *sdk.Server, o HTTPOptions) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.SessionIdle <= 0 {
		o.SessionIdle = DefaultSessionIdle
	}
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s },
		&sdk.StreamableHTTPOptions{Logger: o.Logger, SessionTimeout: o.SessionIdle})
	sessions := newSessions(s, h, o.MaxSessions, o.MaxSessionsPerToken)
	tokens := make([][sha256.Size]byte, len(o.Tokens))
	for i, t := range o.Tokens {
		tokens[i] = sha256.Sum256([]byte(t))
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := foreignOrigin(r); err != nil {
			refuse(w, http.StatusForbidden, err.Error())
			return
		}
		tok, ok := bearer(r, tokens)
		if !ok {
			// Answered before any of the body is read, and the connection
			// closed rather than the body waited for.
			w.Header().Set("Connection", "close")
			w.Header().Set("WWW-Authenticate", `Bearer realm="factbot"`)
			refuse(w, http.StatusUnauthorized, "unauthorized: send Authorization: Bearer <FACTBOT_MCP_TOKEN>")
			return
		}
		sessions.serve(w, r, tok)
	})
}

// bearer returns which of tokens (their digests) r carries, -1 when there
// are none to carry; false when r carries none of them. Digests are
// compared in constant time, every one of them: neither a token's bytes
// nor its length nor which one matched leak through timing.
func bearer(r *http.Request, tokens [][sha256.Size]byte) (int, bool) {
	if len(tokens) == 0 {
		return -1, true
	}
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	got := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	which := -1
	for i, want := range tokens {
		if subtle.ConstantTimeCompare(got[:], want[:]) == 1 {
			which = i
		}
	}
	return which, ok && which >= 0
}

// foreignOrigin returns an error when r comes from a page of another
// origin: its Origin is not the server's own (the host it was asked for,
// as browsers send it), or, without an Origin, the browser says the
// request is cross-site (Sec-Fetch-Site). Clients that are not browsers
// send neither. (http.CrossOriginProtection lets GET, HEAD and OPTIONS
// through; the MCP transport asks servers to check every request, the
// event stream's GET included.)
func foreignOrigin(r *http.Request) error {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host == "" || !strings.EqualFold(u.Host, r.Host) {
			return fmt.Errorf("forbidden: Origin %q is not this server's", o)
		}
		return nil
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
		return nil
	default:
		return fmt.Errorf("forbidden: a %s request from a browser", site)
	}
}

// refuse answers status with a JSON-RPC error that has no id (the MCP
// transport's form of an HTTP refusal), saying msg.
func refuse(w http.ResponseWriter, status int, msg string) {
	e := rpcError{JSONRPC: "2.0", ID: json.RawMessage("null")}
	e.Error.Code, e.Error.Message = -32000, msg
	b, _ := json.Marshal(e)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
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
