// Package methods defines a server type by its methods, with no
// registration in the package.
package methods

import "context"

type Env struct{ state map[string]int } // want `server type=Env routes=3`

type SeedRequest struct{ ID string }

func (e *Env) SeedSession(ctx context.Context, req SeedRequest) error { return nil }    // want `route /seed_session seed pattern="" handler=SeedSession`
func (e *Env) CloseSession(ctx context.Context, id string) error      { return nil }    // want `route /close_session close pattern="" handler=CloseSession`
func (e Env) Verify(ctx context.Context, id string) (float64, error)  { return 0, nil } // want `route /verify verify pattern="" handler=Verify`

// Half has only two of the three methods: not a server.
type Half struct{}

func (Half) SeedSession() {}
func (Half) Verify()      {}
