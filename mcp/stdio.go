package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLine bounds one message over stdio (one line), in bytes.
const MaxLine = 1 << 20

// StdioTransport is the transport of one session on in and out (standard
// input and output): the SDK's newline-delimited JSON, with one difference.
// The SDK ends the session at the first line it cannot decode; here, a line
// that is not JSON is answered with a JSON-RPC parse error (-32700), and
// one that is not a JSON-RPC message, a batch, or a line over MaxLine bytes
// with an invalid request (-32600), and the session goes on. Only whole,
// well-formed messages reach the SDK.
func StdioTransport(in io.Reader, out io.Writer) sdk.Transport {
	w := &lockedWriter{w: out}
	return &sdk.IOTransport{
		Reader: newLineFilter(in, w, MaxLine),
		Writer: w,
	}
}

// lockedWriter writes whole lines, the SDK's messages and lineFilter's
// errors, one at a time. Closing it leaves out open.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return nil }

// lineFilter reads lines, passing on the well-formed JSON-RPC messages and
// answering the others itself.
type lineFilter struct {
	r       *bufio.Reader // its buffer holds a line of max bytes and its newline
	max     int
	out     io.Writer
	pending []byte // the rest of the message being passed on
	err     error  // the input's end, once the last line is passed on
}

func newLineFilter(in io.Reader, out io.Writer, max int) *lineFilter {
	return &lineFilter{r: bufio.NewReaderSize(in, max+1), max: max, out: out}
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		if err := f.next(); err != nil {
			return 0, err
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// Close leaves the input open: the process's standard input is not ours
// to close.
func (f *lineFilter) Close() error { return nil }

// next reads one line: a message to pass on (pending), or one it answers
// itself; an error only when it cannot answer.
func (f *lineFilter) next() error {
	line, err := f.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		for err == bufio.ErrBufferFull { // the rest of the line, unkept
			_, err = f.r.ReadSlice('\n')
		}
		f.err = err
		return f.reply(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("Invalid request: a message over %d bytes (one line) is refused", f.max))
	}
	if err != nil {
		f.err = err // a last line without its newline is still read
	}
	msg := bytes.TrimSpace(line)
	switch {
	case len(msg) == 0:
		return nil
	case !json.Valid(msg):
		return f.reply(nil, jsonrpc.CodeParseError, "Parse error: the line is not JSON")
	case msg[0] == '[':
		return f.reply(nil, jsonrpc.CodeInvalidRequest, "Invalid request: batches (JSON arrays) are not supported: send one message a line")
	}
	if _, derr := jsonrpc.DecodeMessage(msg); derr != nil {
		return f.reply(idOf(msg), jsonrpc.CodeInvalidRequest, "Invalid request: not a JSON-RPC 2.0 message: "+derr.Error())
	}
	f.pending = append(append(f.pending[:0], msg...), '\n')
	return nil
}

// idOf is msg's id when it is a string or a number, else nil (null).
func idOf(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) != nil || len(m.ID) == 0 {
		return nil
	}
	if c := m.ID[0]; c == '"' || c == '-' || (c >= '0' && c <= '9') {
		return m.ID
	}
	return nil
}

// rpcError is a JSON-RPC error response.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// reply writes a JSON-RPC error response for id (null when nil).
func (f *lineFilter) reply(id json.RawMessage, code int, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	e := rpcError{JSONRPC: "2.0", ID: id}
	e.Error.Code, e.Error.Message = code, msg
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = f.out.Write(append(b, '\n'))
	return err
}
