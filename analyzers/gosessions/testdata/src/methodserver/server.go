// Package methodserver is a native server recognised by its methods
// SeedSession, CloseSession and Verify, served by an adapter of another
// package. Its state is package-level.
package methodserver

import (
	"context"
	"errors"
	"sync"
)

var (
	mu       sync.Mutex
	sessions = map[string]*Session{}
	closed   = map[string]bool{}
)

// Session is one episode's state.
type Session struct{ Answer string }

// VerifyResult is what Verify answers.
type VerifyResult struct {
	Reward     float64 `json:"reward"`
	MaskSample bool    `json:"mask_sample"`
}

// Env is the environment.
type Env struct{}

// SeedSession creates a session.
func (Env) SeedSession(ctx context.Context, id, answer string) error {
	mu.Lock()
	defer mu.Unlock()
	if closed[id] {
		return errors.New("closed")
	}
	sessions[id] = &Session{Answer: answer}
	return nil
}

// Verify scores a session.
func (Env) Verify(ctx context.Context, id, answer string) (VerifyResult, error) {
	s := sessions[id] // want `sessions is read without holding a lock, a data race with the handlers that write it help: take mu.Lock\(\) before it and mu.Unlock\(\) after`
	if s == nil {
		return VerifyResult{Reward: 0, MaskSample: true}, nil
	}
	if s.Answer == answer {
		return VerifyResult{Reward: 1}, nil
	}
	return VerifyResult{}, nil
}

// CloseSession releases a session.
func (Env) CloseSession(ctx context.Context, id string) error {
	mu.Lock()
	delete(sessions, id)
	closed[id] = true
	mu.Unlock()
	return nil
}
