package lint

import "sync/atomic"

// progress counts the groups a session's updates were given to analyse,
// and those done.
type progress struct{ total, done atomic.Int64 }

// Progress says how many groups of entrypoints the session's updates have
// analysed so far, of how many they were given: for a front end that
// shows a long first analysis going on. It is safe to call during an
// Update.
func (s *Session) Progress() (done, total int) {
	return int(s.progress.done.Load()), int(s.progress.total.Load())
}
