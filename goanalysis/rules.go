package goanalysis

import (
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
)

// Rules lists the core rules of the Go driver, for the catalogue.
var Rules = []*diag.Rule{core.GoLoadError}

// lookupOwn finds one of this package's rules by code or name.
func lookupOwn(key string) *diag.Rule {
	for _, r := range Rules {
		if r.Code == key || r.Name == key {
			return r
		}
	}
	return nil
}
