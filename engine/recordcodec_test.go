package engine

import (
	"reflect"
	"testing"
)

func TestStampTablesRoundTrip(t *testing.T) {
	paths := pathList{"", "a", "a/b.py", "a/b.pyc", "a/c/__init__.py", "b", "résumé/ü.py"}
	stamps := stampList{
		{Hash: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", Size: 12, MTime: 1 << 60, Ino: 1 << 63},
		{Hash: absent, Anchor: 3},
		{Hash: "dir:abc"},
		{Hash: "?modified during the scan", Size: -1, MTime: -5},
		{Hash: "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef"}, // not lower-case: kept as text
		{},
		{Hash: "!outside the root"},
	}
	pb, _ := paths.GobEncode()
	sb, _ := stamps.GobEncode()
	var p2 pathList
	var s2 stampList
	if err := p2.GobDecode(pb); err != nil || !reflect.DeepEqual(p2, paths) {
		t.Fatalf("paths: %q, %v", p2, err)
	}
	if err := s2.GobDecode(sb); err != nil || !reflect.DeepEqual(s2, stamps) {
		t.Fatalf("stamps: %+v, %v", s2, err)
	}
	for i := range pb {
		if (&p2).GobDecode(pb[:i]) == nil {
			t.Fatalf("paths truncated to %d of %d bytes decoded", i, len(pb))
		}
	}
	for i := range sb {
		if (&s2).GobDecode(sb[:i]) == nil {
			t.Fatalf("stamps truncated to %d of %d bytes decoded", i, len(sb))
		}
	}
}
