package pyscan

// One crossing per tree.
//
// The walker (build.go) asks of every node the same few things: its
// children in order, and of each its symbol, the field it fills and its
// byte span; of a tree with an error, which nodes are ERROR or MISSING
// nodes and which contain one. It used to ask with one cgo call per node
// (the node's children); a cold scan of NeMo Gym spent about 18% of its
// processor time building the model that way, most of it in those calls.
// Now flatten copies the whole tree out in one call per parse, a walk in
// C with tree-sitter's cursor (gl_flatten below), into a flat Go buffer,
// and the walker reads the buffer with no further cgo call.
//
// The buffer is the tree's visible nodes (the ones tree-sitter's cursor
// and Node API show: named nodes, anonymous tokens, comments, ERROR and
// MISSING nodes) in pre-order, the root first, one 16-byte record each:
//
//	start, end  uint32  byte span
//	next        uint32  index of the record after the node's subtree:
//	                    its next sibling's, or, for a last child, where
//	                    the parent's next sibling would be
//	symbol      uint16  ts_node_symbol (65535 for ERROR)
//	field       uint8   ts_tree_cursor_current_field_id, 0 for none
//	flags       uint8   flagMissing (ts_node_is_missing), flagHasError
//	                    (ts_node_has_error)
//
// next is the node's index plus ts_node_descendant_count (the nodes of
// its subtree, itself included). A node's children are the records from
// its index plus one up to its next, each found from the one before by
// its next; its child count is the number of those hops. Named-ness,
// kinds, tokens and fields are the grammar's tables by symbol and field
// id (kinds.go), as before; points (rows and columns) are not copied: the
// model counts lines itself (span.go). Every node is copied, not only
// those the model keeps: the walker reads 98.5% of them (of NeMo Gym's and
// the Python library's trees; what it leaves is mostly the parts of
// dotted names it takes as text, and escape sequences), the cursor must
// step over the rest anyway, and deciding in C which to leave out would
// copy the walker's rules there.
//
// The buffer is Go memory without pointers, handed to C for the one call
// (which the cgo pointer rules allow: C keeps nothing of it), and is kept
// by the Parser from one parse for the next while it stays small
// (maxKeptNodes). Its size is known before the walk:
// ts_node_descendant_count answers in constant time (tree-sitter keeps
// each subtree's count of visible descendants, which its cursor's
// goto_descendant relies on), so a call with a buffer too small returns
// the count without walking, and the second call, with a buffer that
// size, walks. The cursor lives on the C stack for the call and is
// deleted before it returns.
//
// The parse's budgets (parse.go) meter tree-sitter's parse alone, in
// steps, and the copy needs none of its own: its time and its memory are
// linear in the number of nodes, which the steps of a fresh parse bound.
// A step is 100 parse operations or one read of the lexer, and a node
// takes an operation of its own (a token shifted, or a reduction), so a
// tree has at most about 100 nodes a step: ordinary code has about 33
// (5.8 million nodes in 178,000 steps over NeMo Gym and the Python
// library), a file of nothing but comments 90, the densest input found.
// TestFlattenNodesPerStep checks the bound on the fixtures and on such
// inputs. At 16 bytes a node the buffer takes under 1.6 KB a step, about
// 500 bytes on ordinary code, against the 7 KB a step of the tree and the
// parse (see DefaultMaxFileSteps); the copy's time is about a fifth of
// the parse's own (BenchmarkFlatten: 65 to 120 ns a node on a loaded
// 2-CPU machine, two thirds of it in the cursor's moves). (An incremental
// parse reuses subtrees without operations: its tree is the size of a
// fresh parse's of the same text, which the fresh parse's budget bounds.)

/*
#include <stdint.h>
#include <stdbool.h>

// A layout-compatible copy of tree-sitter's TSNode (see
// tree_sitter/api.h), and of TSTreeCursor, which only lives on the C stack
// here; a test checks the sizes against the binding's.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } gl_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } gl_cursor;

// Defined by the tree-sitter core library that
// github.com/tree-sitter/go-tree-sitter compiles into the binary; weak for
// the reason alloc.go gives.
extern gl_cursor ts_tree_cursor_new(gl_node) __attribute__((weak));
extern void ts_tree_cursor_delete(gl_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_first_child(gl_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_next_sibling(gl_cursor *) __attribute__((weak));
extern bool ts_tree_cursor_goto_parent(gl_cursor *) __attribute__((weak));
extern gl_node ts_tree_cursor_current_node(const gl_cursor *) __attribute__((weak));
extern uint16_t ts_tree_cursor_current_field_id(const gl_cursor *) __attribute__((weak));
extern uint16_t ts_node_symbol(gl_node) __attribute__((weak));
extern uint32_t ts_node_start_byte(gl_node) __attribute__((weak));
extern uint32_t ts_node_end_byte(gl_node) __attribute__((weak));
extern bool ts_node_is_missing(gl_node) __attribute__((weak));
extern bool ts_node_has_error(gl_node) __attribute__((weak));
extern uint32_t ts_node_descendant_count(gl_node) __attribute__((weak));

enum { GL_MISSING = 1, GL_HAS_ERROR = 2 };

// One node of the flat tree; see the comment above import "C".
typedef struct {
	uint32_t start, end;
	uint32_t next;
	uint16_t symbol;
	uint8_t field;
	uint8_t flags;
} gl_flat;

typedef struct { uint32_t need, written; } gl_count;

// gl_put writes the cursor's node, the i-th in pre-order, to r, and
// returns how many nodes its subtree has, itself included.
static inline uint32_t gl_put(gl_flat *r, const gl_cursor *c, uint32_t i, bool errors) {
	gl_node n = ts_tree_cursor_current_node(c);
	r->start = ts_node_start_byte(n);
	r->end = ts_node_end_byte(n);
	r->symbol = ts_node_symbol(n);
	r->field = (uint8_t)ts_tree_cursor_current_field_id(c);
	uint8_t flags = 0;
	if (errors && ts_node_has_error(n)) {
		// A MISSING node is an error, so only a node with one can be
		// one.
		flags = GL_HAS_ERROR;
		if (ts_node_is_missing(n)) flags |= GL_MISSING;
	}
	r->flags = flags;
	uint32_t d = ts_node_descendant_count(n);
	r->next = i + d;
	return d;
}

// gl_flatten writes the tree under root to out in pre-order (see above)
// when its nodes fit in cap records. need is how many there are; written
// how many were written: 0 when they do not fit, else need, unless
// tree-sitter's counts and its cursor disagree.
static gl_count gl_flatten(gl_node root, gl_flat *out, uint32_t cap) {
	gl_count res = { ts_node_descendant_count(root), 0 };
	if (res.need > cap || cap == 0) return res;
	gl_cursor c = ts_tree_cursor_new(root);
	// Without an error at the root there is none below it.
	bool errors = ts_node_has_error(root);
	uint32_t i = 0;
	uint32_t d = gl_put(&out[i], &c, i, errors);
	i++;
	for (;;) {
		// Down to the first child, if the node has one (d counts it);
		// else on to the next sibling of the node or of its nearest
		// ancestor that has one.
		if (!(d > 1 && ts_tree_cursor_goto_first_child(&c))) {
			while (!ts_tree_cursor_goto_next_sibling(&c)) {
				if (!ts_tree_cursor_goto_parent(&c)) goto done; // back at root
			}
		}
		if (i == cap) break;
		d = gl_put(&out[i], &c, i, errors);
		i++;
	}
done:
	ts_tree_cursor_delete(&c);
	res.written = i;
	return res;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// flatNode is one node of the flat tree (see above).
type flatNode = C.gl_flat

// The flags of a flatNode.
const (
	flagMissing  = C.GL_MISSING
	flagHasError = C.GL_HAS_ERROR
)

// errorSymbol is the symbol of an ERROR node (tree-sitter's
// ts_builtin_sym_error), outside the grammar's tables.
const errorSymbol = 65535

// nodeRef is a node of the flat tree: its index.
type nodeRef = int32

// maxKeptNodes bounds the flat buffer a Parser keeps between parses
// (4 MB); a larger one, from a huge file, goes with its parse.
const maxKeptNodes = 1 << 18

// flatten copies the tree under root into buf, grown if it is too small,
// and returns the copy (see the comment at the top of this file).
func flatten(root *sitter.Node, buf []flatNode) []flatNode {
	n := *(*C.gl_node)(unsafe.Pointer(root))
	res := C.gl_flatten(n, unsafe.SliceData(buf), C.uint32_t(len(buf)))
	if int(res.need) > len(buf) {
		buf = make([]flatNode, int(res.need)+int(res.need)/8)
		res = C.gl_flatten(n, unsafe.SliceData(buf), C.uint32_t(len(buf)))
	}
	if res.written != res.need {
		// tree-sitter's cursor relies on these counts being one.
		panic(fmt.Sprintf("pyscan: tree-sitter counts %d nodes in the tree, its cursor met %d", res.need, res.written))
	}
	return buf[:res.written]
}

// cNode and cCursor are cwalk's C copies of tree-sitter's TSNode and
// TSTreeCursor, named for the test that checks their layout.
type (
	cNode   = C.gl_node
	cCursor = C.gl_cursor
)
