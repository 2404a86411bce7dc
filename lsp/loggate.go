package lsp

import (
	"io"
	"sync"
)

// logGate is the writer the server and its workers log to. It writes
// one message at a time (the caller's writer need not be safe for
// concurrent use), and drops what comes once Serve has returned: a worker
// that finishes the job in progress while the server exits (worker.stop
// does not wait for it) writes nothing more to a writer its caller has
// taken back.
type logGate struct {
	mu     sync.Mutex
	w      io.Writer
	closed bool
}

func (g *logGate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return len(p), nil
	}
	return g.w.Write(p)
}

// close drops every later write.
func (g *logGate) close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}
