package pyscan

/*
#include <stdint.h>
#include <stdbool.h>
#include <stdlib.h>

// Layout-compatible copies of tree-sitter's TSNode and TSTreeCursor (see
// tree_sitter/api.h); a test checks the sizes against the binding's.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } gl_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } gl_cursor;

// Defined by the tree-sitter core library that
// github.com/tree-sitter/go-tree-sitter compiles into the binary; weak for
// the reason alloc.go gives.
extern gl_cursor ts_tree_cursor_new(gl_node) __attribute__((weak));
extern void ts_tree_cursor_delete(gl_cursor *) __attribute__((weak));
extern void ts_tree_cursor_reset(gl_cursor *, gl_node) __attribute__((weak));
extern bool ts_tree_cursor_goto_first_child(gl_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_next_sibling(gl_cursor *) __attribute__((weak));
extern gl_node ts_tree_cursor_current_node(const gl_cursor *) __attribute__((weak));
extern uint16_t ts_tree_cursor_current_field_id(const gl_cursor *) __attribute__((weak));
extern uint16_t ts_node_symbol(gl_node) __attribute__((weak));
extern uint32_t ts_node_start_byte(gl_node) __attribute__((weak));
extern uint32_t ts_node_end_byte(gl_node) __attribute__((weak));

typedef struct {
	gl_node node;
	uint32_t start, end;
	uint16_t symbol, field;
} gl_kid;

// gl_kids writes the children of n (at most cap) to out and returns how
// many children n has: one cgo call per node instead of five per child.
static uint32_t gl_kids(gl_cursor *c, gl_node n, gl_kid *out, uint32_t cap) {
	ts_tree_cursor_reset(c, n);
	if (!ts_tree_cursor_goto_first_child(c)) return 0;
	uint32_t i = 0;
	do {
		if (i < cap) {
			gl_node ch = ts_tree_cursor_current_node(c);
			out[i].node = ch;
			out[i].start = ts_node_start_byte(ch);
			out[i].end = ts_node_end_byte(ch);
			out[i].symbol = ts_node_symbol(ch);
			out[i].field = ts_tree_cursor_current_field_id(c);
		}
		i++;
	} while (ts_tree_cursor_goto_next_sibling(c));
	return i;
}

static gl_cursor *gl_cursor_new(gl_node n) {
	gl_cursor *c = malloc(sizeof(gl_cursor));
	if (c) *c = ts_tree_cursor_new(n);
	return c;
}

static void gl_cursor_free(gl_cursor *c) {
	if (c) {
		ts_tree_cursor_delete(c);
		free(c);
	}
}
*/
import "C"

import (
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// tsNode is a tree-sitter node by value, as the C library hands it out;
// the walker reads the tree through it without a Go allocation per node.
type tsNode = C.gl_node

// nodeOf views a binding's node as a tsNode (the same bytes).
func nodeOf(n *sitter.Node) tsNode { return *(*tsNode)(unsafe.Pointer(n)) }

// sitterNode views a tsNode as the binding's node, for the few questions
// the walker asks through the binding (errors).
func sitterNode(n *tsNode) *sitter.Node { return (*sitter.Node)(unsafe.Pointer(n)) }

// kidReader lists children through one C call per node, into a buffer in C
// memory that it reuses.
type kidReader struct {
	cur *C.gl_cursor
	buf *C.gl_kid
	cap int
}

func newKidReader(root tsNode) *kidReader {
	r := &kidReader{cur: C.gl_cursor_new(root)}
	if r.cur == nil {
		panic("pyscan: out of memory")
	}
	r.grow(64)
	return r
}

func (r *kidReader) grow(n int) {
	if r.buf != nil {
		C.free(unsafe.Pointer(r.buf))
	}
	r.cap = n
	r.buf = (*C.gl_kid)(C.malloc(C.size_t(n) * C.size_t(unsafe.Sizeof(C.gl_kid{}))))
	if r.buf == nil {
		panic("pyscan: out of memory")
	}
}

func (r *kidReader) close() {
	C.gl_cursor_free(r.cur)
	r.cur = nil
	if r.buf != nil {
		C.free(unsafe.Pointer(r.buf))
		r.buf = nil
	}
}

// read returns the children of n as C records, valid until the next read.
func (r *kidReader) read(n tsNode) []C.gl_kid {
	cnt := int(C.gl_kids(r.cur, n, r.buf, C.uint32_t(r.cap)))
	if cnt > r.cap {
		r.grow(cnt)
		cnt = int(C.gl_kids(r.cur, n, r.buf, C.uint32_t(r.cap)))
	}
	if cnt == 0 {
		return nil
	}
	return unsafe.Slice(r.buf, cnt)
}
