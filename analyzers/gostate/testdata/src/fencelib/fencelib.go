// Package fencelib is a fence type of another package: its methods have no
// body in the packages that use it.
package fencelib

import "errors"

type Set struct{ ids map[string]bool }

func (s *Set) Fence(id string)         { s.ids[id] = true }
func (s *Set) Contains(id string) bool { return s.ids[id] }
func (s *Set) Check(id string) error {
	if s.ids[id] {
		return errors.New("fenced")
	}
	return nil
}
