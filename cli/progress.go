package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/gymlint/gymlint/engine"
)

// Progress: a check that takes more than progressAfter, with stderr a
// terminal, shows on stderr how far it has gone (Python modules parsed,
// entrypoints analysed), one line rewritten in place, and
// erases it when the check ends. Otherwise (a pipe, a file, CI logs,
// --quiet) it prints nothing.

// progressAfter and progressEvery are variables for the tests.
var (
	progressAfter = time.Second
	progressEvery = 200 * time.Millisecond
)

// startProgress shows e's progress on w while a scan runs; the returned
// function stops it and erases the line.
func startProgress(w io.Writer, e *engine.Engine) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		wait := time.NewTimer(progressAfter)
		defer wait.Stop()
		select {
		case <-done:
			return
		case <-wait.C:
		}
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		shown := false
		for {
			p := e.Progress()
			line := fmt.Sprintf("gymlint: %d Python modules parsed", p.Modules)
			if p.Total > 0 {
				line += fmt.Sprintf(", %d of %d entrypoints analysed", p.Done, p.Total)
			}
			fmt.Fprint(w, "\r\033[K"+line)
			shown = true
			select {
			case <-done:
				if shown {
					fmt.Fprint(w, "\r\033[K")
				}
				return
			case <-tick.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
