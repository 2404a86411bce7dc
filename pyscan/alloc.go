package pyscan

/*
#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

// Defined by the tree-sitter core library that
// github.com/tree-sitter/go-tree-sitter compiles into the binary. They are
// declared weak because cgo links this package's C code on its own once, to
// learn what it imports, before the final link where the symbols exist.
extern void ts_set_allocator(void *(*new_malloc)(size_t), void *(*new_calloc)(size_t, size_t),
                             void *(*new_realloc)(void *, size_t), void (*new_free)(void *))
    __attribute__((weak));
extern void *(*ts_current_malloc)(size_t) __attribute__((weak));
extern void *c_malloc_fn(size_t size) __attribute__((weak));

// Passing NULL restores tree-sitter's own defaults: the C library's
// allocator, with an abort on allocation failure. Returns 0 when the
// tree-sitter library is not linked in (which would be a build error).
//
// glibc's fast bins are turned off (M_MXFAST 0): a tree is thousands of
// small allocations, all freed when it is closed, and fast bins keep them
// apart, so the next parse's nodes are scattered over the heap; without
// them freed chunks merge, and a parse allocates its nodes side by side.
// Before parses read their text in place (cparse.go), the binding's 4 KB
// copy of each chunk merged the fast bins as a side effect (a large
// request does); without either, a parse took about 10% longer.
static int gymlint_use_c_allocator(void) {
	if (!ts_set_allocator) return 0;
	ts_set_allocator(NULL, NULL, NULL, NULL);
#ifdef __GLIBC__
	mallopt(M_MXFAST, 0);
#endif
	return 1;
}
static int gymlint_go_allocator_active(void) {
	return !&ts_current_malloc || !c_malloc_fn || ts_current_malloc == c_malloc_fn;
}

// glibc keeps the memory that free() gives back in the arena of the thread
// that allocated it, and a Go program's cgo calls run on many threads:
// without a trim, each arena holds on to the largest parse it served.
#ifdef __GLIBC__
#include <malloc.h>
static void gymlint_trim(void) { malloc_trim(0); }
#else
static void gymlint_trim(void) {}
#endif
*/
import "C"

import (
	// Imported here so that its init, which installs the Go-callback
	// allocator, runs before this package's init replaces it.
	_ "github.com/tree-sitter/go-tree-sitter"
)

// The go-tree-sitter binding (v0.25.0) installs, in its init function, an
// allocator that routes every C allocation of the parser through a Go
// callback. That costs about a third of the parse time. Package
// initialisation runs after the binding's, so this puts tree-sitter back on
// the C library's allocator for every parser gymlint creates.
func init() { useCAllocator() }

func useCAllocator() {
	if C.gymlint_use_c_allocator() == 0 {
		panic("pyscan: the tree-sitter core library is not linked into this binary")
	}
}

// goAllocatorActive reports whether tree-sitter still allocates through the
// binding's Go callbacks. It exists for the test that pins the choice above.
func goAllocatorActive() bool {
	return C.gymlint_go_allocator_active() != 0
}

// trimAfter is the size of a file after whose parse the C heap's free
// memory is given back to the system.
const trimAfter = 1 << 20

// releaseCMemory gives the C heap's free memory back to the system, where
// the C library can (glibc's malloc_trim). A parse of a large file frees
// hundreds of megabytes when its tree is closed, but glibc keeps them in
// the arena of the thread that parsed: eight 4 MB modules parsed one after
// another held 1.56 GB instead of 0.53 GB. Trimming walks the C heap, a
// few milliseconds, so it is done after large parses only.
func releaseCMemory() { C.gymlint_trim() }
