package lint

// SetWaitingBound sets the bound of the session's waiting entrypoints'
// source (maxWaitingSource) for a test.
func SetWaitingBound(s *Session, bytes int64) { s.waiting = bytes }
