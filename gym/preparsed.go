package gym

import (
	"bytes"
	"sync"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/pyscan"
)

// Preparsed holds modules parsed before a cache was made, from files of
// its root: contract detection parses the framework's modules that may
// hold a fact (contract.DetectModules) before the scan begins, and the
// scan's views parse several of the same files again (the base classes'
// modules, server_utils, config_types). On NeMo Gym that was 137 KB of
// the 3.4 MB a cold scan parses.
//
// A cache made with them takes each in place of parsing its file (it
// counts as parsed all the same), when the file's text is the module's,
// the file is not overlaid (an editor's buffer is parsed incrementally),
// and the view's parse budget has room for the steps the parse took
// (pyscan.Budget.Charge): the view then has the model and spends the
// budget that its own parse would have, so the findings are the same.
// A module is taken once; those no view took are dropped with the
// cache's parses (Cache.DropParsed, Cache.DropPreparsed).
type Preparsed struct {
	mu   sync.Mutex
	mods map[string]contract.Parsed
}

// NewPreparsed holds the modules, by their paths.
func NewPreparsed(ps []contract.Parsed) *Preparsed {
	p := &Preparsed{mods: make(map[string]contract.Parsed, len(ps))}
	for _, m := range ps {
		if m.Module != nil {
			p.mods[m.Module.Path] = m
		}
	}
	return p
}

// take removes and returns the module of the file at path.
func (p *Preparsed) take(path string) (contract.Parsed, bool) {
	if p == nil {
		return contract.Parsed{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	m, ok := p.mods[path]
	delete(p.mods, path)
	return m, ok
}

// drop forgets every module not taken.
func (p *Preparsed) drop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.mods = nil
	p.mu.Unlock()
}

// preparsed returns the module parsed before the cache was made from the
// file at p when it may stand for a parse of data within budget (see
// Preparsed), the budget charged; nil otherwise, the caller parses.
func (c *Cache) preparsed(p string, data []byte, budget *pyscan.Budget) *pyscan.Module {
	if c.options.Preparsed == nil || c.fs.Overlaid(p) {
		return nil
	}
	got, ok := c.options.Preparsed.take(p)
	if !ok || got.Module.SyntaxError != nil || !bytes.Equal(got.Module.Source(), data) || !budget.Charge(got.Steps) {
		return nil
	}
	return got.Module
}

// DropPreparsed forgets the modules of Options.Preparsed that no view
// took: a session that goes on after its first scan does not keep them.
func (c *Cache) DropPreparsed() { c.options.Preparsed.drop() }
