package pyscan

import (
	"testing"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

func TestTreeSitterUsesCAllocator(t *testing.T) {
	if goAllocatorActive() {
		t.Fatal("tree-sitter allocates through the binding's Go callbacks; pyscan's init should have restored the C allocator")
	}
	// The detector itself must see the binding's allocator when it is installed.
	sitter.SetAllocator(nil, nil, nil, nil)
	detected := goAllocatorActive()
	useCAllocator()
	if !detected {
		t.Fatal("goAllocatorActive did not detect the binding's Go-callback allocator")
	}
	if goAllocatorActive() {
		t.Fatal("useCAllocator did not restore the C allocator")
	}
}
