// Package methodapi defines a server by its methods (an adapter serves
// them); the request bodies are typed parameters.
package methodapi

import (
	"context"
	"errors"
	"sync"
)

type SeedRequest struct {
	TaskID string
	Data   string
}

type StepRequest struct {
	TaskID string
	Action string
}

type Env struct {
	mu    sync.Mutex
	tasks map[string]string
	cache map[string]int
}

func (e *Env) SeedSession(ctx context.Context, req SeedRequest) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tasks[req.TaskID] = req.Data // want `e\.tasks is session state .* in /seed_session by req\.TaskID from the request body and used by Step\(\) too`
	return nil
}

func (e *Env) Step(ctx context.Context, req *StepRequest) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, ok := e.tasks[req.TaskID]
	if !ok {
		return "", errors.New("no task")
	}
	return t + req.Action, nil
}

// Verify uses a cache keyed by the body only here: a per-route cache, not
// reported.
func (e *Env) Verify(ctx context.Context, req StepRequest) (float64, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n, ok := e.cache[req.Action]; ok {
		return float64(n), nil
	}
	e.cache[req.Action] = len(req.Action)
	return 0, nil
}

func (e *Env) CloseSession(ctx context.Context, id string) error { return nil }
