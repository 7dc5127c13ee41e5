package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"

	"github.com/celint/celint/internal/safetext"
	"go.lsp.dev/jsonrpc2"
)

// errTooLarge is the read error of a message larger than the limit.
var errTooLarge = errors.New("message larger than the limit")

// countingConn counts the bytes read since the last reset, and refuses to
// read more than limit of them: it bounds what one message makes the
// server hold. (The framing reads ahead a little, so a message's count may
// include the start of the next.)
type countingConn struct {
	io.ReadWriteCloser
	limit int64
	n     atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	if c.n.Load() > c.limit {
		return 0, fmt.Errorf("%w of %d bytes", errTooLarge, c.limit)
	}
	n, err := c.ReadWriteCloser.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// tolerantStream is the library's framing, which goes on after a message
// whose frame is whole but whose content is not a JSON-RPC message: that
// message is skipped and reported (skipped), where the library would end
// the connection. A broken frame (a bad header, a short body) still ends
// it, since nothing after it can be found.
type tolerantStream struct {
	jsonrpc2.Stream
	in      *countingConn
	skipped func(error)
}

func (s *tolerantStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		s.in.n.Store(0)
		msg, n, err := s.Stream.Read(ctx)
		if err == nil || !undecodable(err) {
			return msg, n, err
		}
		s.skipped(err)
	}
}

// undecodable reports whether a read error is that of a whole frame whose
// content is no JSON-RPC message.
func undecodable(err error) bool {
	return errors.Is(err, jsonrpc2.ErrInvalidRequest) ||
		strings.HasPrefix(err.Error(), "unmarshaling jsonrpc message")
}

// skipped tells the client, in its log, of a message that was not one.
// JSON-RPC would answer it with an error of id null, which the library's
// ids cannot express; a log message says the same without taking the
// place of an answer to some request.
func (s *server) skipped(err error) {
	msg := "celint: skipped a message that is not JSON-RPC: " + logText(err.Error(), 200)
	s.logf("%s", msg)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.conn.Notify(s.ctx, "window/logMessage", map[string]any{"type": 1, "message": msg})
	}()
}

// logText returns at most n characters of s (then "…"), made safe for a
// log line by safetext: text fit to quote in a log or an error.
func logText(s string, n int) string {
	k := 0
	for i := range s {
		if k == n {
			s = s[:i] + "…"
			break
		}
		k++
	}
	return safetext.GuardLine(safetext.Line(s))
}
