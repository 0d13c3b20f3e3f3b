package pgtest

import (
	"fmt"
	"io"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// CutProxy is a TCP proxy in front of the test server that a test can cut
// (every connection closed, new ones refused) and restore: PostgreSQL
// going away, and coming back, under a running factbot.
type CutProxy struct {
	ln       net.Listener
	network  string
	upstream string

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]bool
}

// CutDSN creates an empty database (as DSN does) and returns the URL that
// reaches it through a new CutProxy, closed when tb ends.
func CutDSN(tb testing.TB) (string, *CutProxy) {
	tb.Helper()
	dsn := DSN(tb)
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	p := &CutProxy{network: "tcp", upstream: net.JoinHostPort(cfg.Host, fmt.Sprint(cfg.Port)), conns: map[net.Conn]bool{}}
	if strings.HasPrefix(cfg.Host, "/") {
		p.network, p.upstream = "unix", filepath.Join(cfg.Host, fmt.Sprintf(".s.PGSQL.%d", cfg.Port))
	}
	if p.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		p.ln.Close()
		p.Cut()
	})
	go p.serve()
	u, err := url.Parse(dsn)
	if err != nil {
		tb.Fatal(err)
	}
	q := u.Query()
	q.Del("host")
	q.Del("port")
	q.Set("sslmode", "disable")
	u.Host, u.RawQuery = p.ln.Addr().String(), q.Encode()
	return u.String(), p
}

func (p *CutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut := p.cut
		p.mu.Unlock()
		var up net.Conn
		if !cut {
			up, err = net.Dial(p.network, p.upstream)
		}
		if cut || err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go func() { io.Copy(up, c); up.Close() }()
		go func() { io.Copy(c, up); c.Close() }()
	}
}

// Cut closes every connection through the proxy and refuses new ones
// until Restore.
func (p *CutProxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = true
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Restore lets new connections through again.
func (p *CutProxy) Restore() {
	p.mu.Lock()
	p.cut = false
	p.mu.Unlock()
}
