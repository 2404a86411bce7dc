package lint

import "sync/atomic"

// progress counts the entrypoints a session's updates have set out to
// analyse, and those done (an entrypoint analysed again with its group
// counts again).
type progress struct{ total, done atomic.Int64 }

// Progress says how many entrypoints the session's updates have analysed
// so far, of how many they have set out to (the count grows as a first
// analysis learns how the entrypoints group): for a front end that shows
// a long first analysis going on. It is safe to call during an Update.
func (s *Session) Progress() (done, total int) {
	return int(s.progress.done.Load()), int(s.progress.total.Load())
}
