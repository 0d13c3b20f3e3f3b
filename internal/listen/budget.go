package listen

import (
	"bytes"
	"container/list"
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// This file is the connection budget of every listener: no one client
// address can hold every connection (perAddrListener), and slow clients
// spread over many addresses cannot hold every slot (budgetListener).

// perAddrListener closes at once the connections from an address that
// already holds max open connections, so that one client cannot take every
// connection slot of the listener (budgetListener) above it.
type perAddrListener struct {
	net.Listener
	max int

	mu   sync.Mutex
	open map[string]int
}

func limitPerAddr(ln net.Listener, max int) *perAddrListener {
	return &perAddrListener{Listener: ln, max: max, open: map[string]int{}}
}

func (l *perAddrListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := c.RemoteAddr().String()
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		l.mu.Lock()
		ok := l.open[host] < l.max
		if ok {
			l.open[host]++
		}
		l.mu.Unlock()
		if ok {
			return &addrConn{Conn: c, l: l, host: host}, nil
		}
		c.Close()
	}
}

// addrConn gives its address's slot back when closed.
type addrConn struct {
	net.Conn
	l    *perAddrListener
	host string
	once sync.Once
}

func (c *addrConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.l.mu.Lock()
		if c.l.open[c.host]--; c.l.open[c.host] <= 0 {
			delete(c.l.open, c.host)
		}
		c.l.mu.Unlock()
	})
	return err
}

// budgetListener bounds a listener's open connections (max) and, among
// them, those waiting for a request's headers (maxWaiting: newly accepted
// ones, and idle keep-alive ones waiting for the next request). When a
// bound is reached, the connection that has waited longest for its
// headers is closed to make room, rather than new connections being left
// in the kernel's queue: slow clients spread over many addresses cannot
// hold every slot, and a probe that sends its request at once is
// answered. A connection the server has read nothing from yet is spared
// for unreadGrace; Accept waits while every connection is busy with a
// request or so spared. Listener.Server wires it to its http.Server
// (track, serving), which says when a connection's request is served.
type budgetListener struct {
	net.Listener
	max, maxWaiting int

	mu      sync.Mutex
	cond    *sync.Cond
	open    int
	waiting list.List // of *budgetConn, longest waiting first
	closed  bool
}

func newBudgetListener(ln net.Listener, maxOpen, maxWaiting int) *budgetListener {
	maxOpen = max(maxOpen, 1)
	l := &budgetListener{Listener: ln, max: maxOpen, maxWaiting: min(max(maxWaiting, 1), maxOpen)}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *budgetListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	bc := &budgetConn{Conn: c, l: l, at: time.Now()}
	l.mu.Lock()
	defer l.mu.Unlock()
	for !l.closed && (l.open >= l.max || l.waiting.Len() >= l.maxWaiting) {
		e, wait := l.sheddableLocked(time.Now())
		if e != nil {
			l.shedLocked(e)
			continue
		}
		// Every connection is serving a request, or those waiting for
		// their headers are new and not read yet: wait for one to
		// finish, to be read, or to be old enough to shed.
		var t *time.Timer
		if wait > 0 {
			t = time.AfterFunc(wait, func() {
				l.mu.Lock()
				l.cond.Broadcast()
				l.mu.Unlock()
			})
		}
		l.cond.Wait()
		if t != nil {
			t.Stop()
		}
	}
	if l.closed {
		c.Close()
		return nil, net.ErrClosed
	}
	l.open++
	bc.elem = l.waiting.PushBack(bc)
	return bc, nil
}

// Close closes the listener and ends Accept, one waiting for room
// included.
func (l *budgetListener) Close() error {
	l.mu.Lock()
	l.closed = true
	l.cond.Broadcast()
	l.mu.Unlock()
	return l.Listener.Close()
}

// unreadGrace is how long a connection the server has read nothing from
// yet is spared: under load, a probe's request may wait that long for its
// goroutine to read it.
const unreadGrace = 100 * time.Millisecond

// sheddableLocked returns the waiting connection to shed: the one that
// has waited longest among those that sent part of a request and not the
// end of its headers (a slow client dripping them), else the longest
// waiting one that sent nothing if it has waited unreadGrace; or nil and
// how long until that one may be shed (0 when none may be). A connection
// whose headers have arrived is never shed: its request is about to be
// served.
func (l *budgetListener) sheddableLocked(now time.Time) (*list.Element, time.Duration) {
	var quiet *list.Element
	for e := l.waiting.Front(); e != nil; e = e.Next() {
		bc := e.Value.(*budgetConn)
		switch {
		case bc.headers.Load():
		case bc.heard.Load():
			return e, 0
		case quiet == nil:
			quiet = e
		}
	}
	if quiet == nil {
		return nil, 0
	}
	if age := now.Sub(quiet.Value.(*budgetConn).at); age < unreadGrace {
		return nil, unreadGrace - age
	}
	return quiet, 0
}

// shedLocked closes the waiting connection e.
func (l *budgetListener) shedLocked(e *list.Element) {
	bc := e.Value.(*budgetConn)
	l.releaseLocked(bc)
	bc.Conn.Close() // the server's read fails, and it closes bc
}

// releaseLocked gives bc's slot back, once.
func (l *budgetListener) releaseLocked(bc *budgetConn) {
	if bc.released {
		return
	}
	bc.released = true
	if bc.elem != nil {
		l.waiting.Remove(bc.elem)
		bc.elem = nil
	}
	l.open--
	l.cond.Broadcast()
}

// setWaiting moves c into or out of the waiting connections, when c is
// one of l's (it may be wrapped by TLS or come from elsewhere).
func (l *budgetListener) setWaiting(c net.Conn, waiting bool) {
	bc, ok := c.(*budgetConn)
	if !ok || bc.l != l {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if bc.released || (bc.elem != nil) == waiting {
		return
	}
	if waiting {
		if l.waiting.Len() >= l.maxWaiting {
			if e, _ := l.sheddableLocked(time.Now()); e != nil {
				l.shedLocked(e)
			}
		}
		bc.heard.Store(false)
		bc.headers.Store(false)
		bc.at = time.Now()
		bc.elem = l.waiting.PushBack(bc)
		l.cond.Broadcast() // Accept may wait for a connection it can shed
		return
	}
	l.waiting.Remove(bc.elem)
	bc.elem = nil
	l.cond.Broadcast() // Accept may wait for room among the waiting
}

// budgetConnKey is the context key of a request's connection.
type budgetConnKey struct{}

// track makes srv tell l when each connection waits for its next request
// (idle after an answer) or leaves HTTP (hijacked); the handler tells it
// when a request starts being served (serving).
func (l *budgetListener) track(srv *http.Server) {
	srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
		return context.WithValue(ctx, budgetConnKey{}, c)
	}
	srv.ConnState = func(c net.Conn, s http.ConnState) {
		switch s {
		case http.StateIdle:
			l.setWaiting(c, true)
		case http.StateHijacked:
			l.setWaiting(c, false)
		}
	}
}

// serving tells l that r's connection is serving a request: its headers
// are read and the handler runs.
func (l *budgetListener) serving(r *http.Request) {
	if c, ok := r.Context().Value(budgetConnKey{}).(net.Conn); ok {
		l.setWaiting(c, false)
	}
}

// budgetConn is a connection of a budgetListener.
type budgetConn struct {
	net.Conn
	l        *budgetListener
	elem     *list.Element // in l.waiting; nil while serving a request
	released bool          // guarded by l.mu
	heard    atomic.Bool   // a read returned data since at
	headers  atomic.Bool   // a read returned the end of a request's headers
	at       time.Time     // accepted, or idle after a request (guarded by l.mu)
}

// headersEnd ends a request's headers.
var headersEnd = []byte("\r\n\r\n")

func (c *budgetConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 && !c.headers.Load() && bytes.Contains(p[:n], headersEnd) {
		c.headers.Store(true)
	}
	if n > 0 && !c.heard.Load() {
		c.heard.Store(true)
		c.l.mu.Lock()
		c.l.cond.Broadcast() // Accept may wait for a connection it can shed
		c.l.mu.Unlock()
	}
	return n, err
}

func (c *budgetConn) Close() error {
	err := c.Conn.Close()
	c.l.mu.Lock()
	c.l.releaseLocked(c)
	c.l.mu.Unlock()
	return err
}
