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
// parse (see DefaultMaxFileSteps). (An incremental parse reuses subtrees
// without operations: its tree is the size of a fresh parse's of the same
// text, which the fresh parse's budget bounds.)
//
// The direct walk. Through the cursor the copy took about a fifth of the
// parse's own time (BenchmarkFlatten: 65 to 120 ns a node on a loaded
// 2-CPU machine), and two thirds of that was the cursor itself: each move
// searches the parent's children again through the hidden nodes, pushes
// or pops an entry of a growable stack, and the field of every node is
// searched from the top of that stack. So flatten reads tree-sitter's
// subtrees in place instead (gl_flatten_direct, 18 to 21 ns a node): the
// same records in the same order, by the cursor's own rules (which child
// is visible, which hidden child is entered, where a child starts, which
// field it fills; see the function), with a stack of its own that holds
// one small frame a level, on the C stack for the first 128 levels and on
// the heap past them (a tree's depth is bounded by its count of nodes).
//
// Those subtrees are tree-sitter's private layout, which it does not
// promise to keep from one version to the next, so the direct walk is
// used only when four guards agree, and the cursor walk stays as their
// fallback and the tests' reference:
//   - the C declarations below are v0.25.0's layout on a little-endian
//     machine with 64-bit pointers (gl_direct_platform), with the sizes
//     and offsets the walk relies on checked when they compile;
//   - the binary's build information names that version of the binding,
//     not replaced (bindingIs; TestDirectWalkLayoutVersion ties go.mod's
//     requirement to directLayout, for the test binaries, which record
//     no dependencies);
//   - on the first copy, a probe copies small trees both ways (with nodes
//     visible only by an alias, fields found through hidden nodes,
//     comments, ERROR and MISSING nodes) and any difference sends every
//     tree through the cursor for the rest of the process;
//   - a copy that does not write the tree's count of nodes is redone by
//     the cursor.
//
// TestDirectWalkMatchesCursor compares the two walks node for node on
// every fixture, whole, cut and edited. Before it was adopted the direct
// walk copied 48,720 trees (89 million nodes: the NeMo Gym snapshot and
// two corpora of its later servers, the Python 3.11 library and Debian's
// Python packages, a generated repository of 2,000 servers; each file
// whole, halved and without its first third) exactly as the cursor did.

/*
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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

// The direct walk (see "The direct walk" below): tree-sitter's own tree,
// read in place. These are the layouts of tree-sitter v0.25.0's internal
// subtree (lib/src/subtree.h) on a little-endian machine with 64-bit
// pointers, and the head of its TSLanguage, which the grammar's generated
// parser.c fills (lib/src/parser.h, the same for ABI 14 and 15), declared
// here in full field order so that the compiler lays them out as
// tree-sitter's does. Only what the walk reads is named for use.
typedef struct { uint32_t bytes, row, column; } gl_length;

// A leaf small enough to live in the 8 bytes of a subtree reference;
// is_inline falls on the low bit of a pointer, which is 0 for a pointer.
typedef struct {
	bool is_inline : 1;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool has_changes : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	uint8_t symbol;
	uint16_t parse_state;
	uint8_t padding_columns;
	uint8_t padding_rows : 4;
	uint8_t lookahead_bytes : 4;
	uint8_t padding_bytes;
	uint8_t size_bytes;
} gl_inline;

// Every other subtree; its children are stored just before it.
typedef struct {
	uint32_t ref_count;
	gl_length padding;
	gl_length size;
	uint32_t lookahead_bytes;
	uint32_t error_cost;
	uint32_t child_count;
	uint16_t symbol;
	uint16_t parse_state;
	bool visible : 1;
	bool named : 1;
	bool extra : 1;
	bool fragile_left : 1;
	bool fragile_right : 1;
	bool has_changes : 1;
	bool has_external_tokens : 1;
	bool has_external_scanner_state_change : 1;
	bool depends_on_column : 1;
	bool is_missing : 1;
	bool is_keyword : 1;
	union {
		struct {
			uint32_t visible_child_count;
			uint32_t named_child_count;
			uint32_t visible_descendant_count;
			int32_t dynamic_precedence;
			uint16_t repeat_depth;
			uint16_t production_id;
			uint16_t first_leaf_symbol;
			uint16_t first_leaf_parse_state;
		} inner;
		struct {
			union { char *long_data; char short_data[24]; } data;
			uint32_t length;
		} scanner_state;
		int32_t lookahead_char;
	} u;
} gl_heap;

typedef union { gl_inline data; const gl_heap *ptr; } gl_subtree;

typedef struct { uint16_t field_id; uint8_t child_index; bool inherited; } gl_field_entry;
typedef struct { uint16_t index, length; } gl_field_slice;

typedef struct {
	uint32_t abi_version, symbol_count, alias_count, token_count, external_token_count;
	uint32_t state_count, large_state_count, production_id_count, field_count;
	uint16_t max_alias_sequence_length;
	const void *parse_table, *small_parse_table, *small_parse_table_map, *parse_actions;
	const void *symbol_names, *field_names;
	const gl_field_slice *field_map_slices;
	const gl_field_entry *field_map_entries;
	const void *symbol_metadata;
	const uint16_t *public_symbol_map;
	const void *alias_map;
	const uint16_t *alias_sequences;
} gl_language;

// The machines the direct walk runs on (see gl_direct_platform); on any
// other the declarations are compiled but never read, and not checked.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && UINTPTR_MAX == 0xffffffffffffffffu
#define GL_DIRECT_PLATFORM 1
_Static_assert(sizeof(gl_subtree) == 8, "a subtree reference is 8 bytes");
_Static_assert(sizeof(gl_inline) == 8, "an inline subtree is 8 bytes");
_Static_assert(offsetof(gl_heap, child_count) == 36, "child_count");
_Static_assert(offsetof(gl_heap, u) == 48, "the heap subtree's union");
_Static_assert(sizeof(gl_field_entry) == 4, "a field map entry is 4 bytes");
#else
#define GL_DIRECT_PLATFORM 0
#endif

extern const void *ts_tree_language(const void *tree) __attribute__((weak));

// gl_direct_platform says whether this machine lays the subtrees out as
// declared above.
static bool gl_direct_platform(void) { return GL_DIRECT_PLATFORM; }

enum { GL_ERROR_SYMBOL = 65535 };

#define GL_GET(s, f) ((s).data.is_inline ? (s).data.f : (s).ptr->f)

// One level of the direct walk: the children of a node (visible or
// hidden) being read, and what a field search needs of the node itself.
typedef struct {
	const gl_subtree *kids;
	uint32_t n, k;          // child count, the next child's index
	uint32_t sci;           // the next child's structural index (extras have none)
	uint32_t pos;           // the next child's start byte, padding included
	const uint16_t *aliases;
	uint16_t prod;          // the node's production
	uint32_t self_sci;      // the node's structural index in its parent
	bool self_stop;         // the node is visible or an extra: a field search stops at it
} gl_frame;

typedef struct { uint32_t need, written, aliased, fields_through_hidden; } gl_direct_count;

static inline uint16_t gl_field_at(const gl_language *l, uint16_t prod, uint32_t sci) {
	if (l->field_count == 0) return 0;
	gl_field_slice sl = l->field_map_slices[prod];
	const gl_field_entry *e = l->field_map_entries + sl.index, *end = e + sl.length;
	for (; e < end; e++) {
		if (!e->inherited && e->child_index == sci) return e->field_id;
	}
	return 0;
}

static inline void gl_push(gl_frame *f, const gl_language *l, gl_subtree s, uint32_t pos, uint32_t self_sci, bool self_stop) {
	f->n = s.ptr->child_count;
	f->kids = (const gl_subtree *)s.ptr - f->n;
	f->k = 0;
	f->sci = 0;
	f->pos = pos;
	f->prod = s.ptr->u.inner.production_id;
	f->aliases = f->prod ? l->alias_sequences + (uint32_t)f->prod * l->max_alias_sequence_length : NULL;
	f->self_sci = self_sci;
	f->self_stop = self_stop;
	// The walk reads every child's subtree, and the tree has just been
	// built by a parse whose memory is several times the processor's
	// cache: most of those reads missed it one after another, two thirds
	// of the walk's time. So the lines each child will be read from are
	// asked for at once, when its parent is entered: the first and last of
	// its fields (a subtree spans two lines unless it is aligned), and the
	// end of its own children's references, which sit right before it.
	for (uint32_t k = 0; k < f->n; k++) {
		if (!f->kids[k].data.is_inline) {
			const char *h = (const char *)f->kids[k].ptr;
			__builtin_prefetch(h);
			__builtin_prefetch(h + offsetof(gl_heap, u.inner.production_id));
			__builtin_prefetch(h - sizeof(gl_subtree));
		}
	}
}

// gl_flatten_direct writes what gl_flatten writes, reading the subtrees
// themselves instead of moving a cursor: the same pre-order of visible
// nodes, with the cursor's rules for which nodes are visible (a node's own
// flag, or an alias its parent's production gives it), which hidden nodes
// are entered (those with visible children), where a child starts (its
// parent's start for the first, else the end of the one before plus its
// padding) and which field a node fills (the first non-inherited entry for
// its structural index in its parent's field map, else in its hidden
// parent's, up to the nearest visible or extra ancestor). The stack is
// the caller's stack buffer, or the heap past its depth; written is 0 if
// the heap refuses.
static gl_direct_count gl_flatten_direct(gl_node root, gl_flat *out, uint32_t cap) {
	gl_direct_count res = { ts_node_descendant_count(root), 0, 0, 0 };
	if (res.need > cap || cap == 0) return res;
	const gl_language *lang = (const gl_language *)ts_tree_language(root.tree);
	bool errors = ts_node_has_error(root);
	gl_subtree s = *(const gl_subtree *)root.id;
	gl_flat *r = &out[0];
	r->start = ts_node_start_byte(root);
	r->end = ts_node_end_byte(root);
	r->symbol = ts_node_symbol(root);
	r->field = 0;
	r->flags = errors ? (GL_HAS_ERROR | (ts_node_is_missing(root) ? GL_MISSING : 0)) : 0;
	r->next = res.need;
	uint32_t i = 1;
	if (s.data.is_inline || s.ptr->child_count == 0) {
		res.written = i;
		return res;
	}
	gl_frame local[128];
	gl_frame *st = local;
	uint32_t depth = 128, top = 0;
	gl_push(&st[0], lang, s, r->start, 0, true);
	for (;;) {
		gl_frame *f = &st[top];
		if (f->k == f->n) {
			if (top == 0) break;
			top--;
			continue;
		}
		gl_subtree c = f->kids[f->k];
		bool inl = c.data.is_inline;
		if (f->k > 0) f->pos += inl ? c.data.padding_bytes : c.ptr->padding.bytes;
		uint32_t start = f->pos;
		uint32_t size = inl ? c.data.size_bytes : c.ptr->size.bytes;
		f->pos += size;
		f->k++;
		bool extra = GL_GET(c, extra);
		uint32_t sci = f->sci;
		uint16_t alias = 0;
		if (!extra) {
			if (f->aliases) alias = f->aliases[sci];
			f->sci++;
		}
		uint32_t nkids = inl ? 0 : c.ptr->child_count;
		bool visible = GL_GET(c, visible);
		if (visible || alias) {
			if (i == cap) break;
			r = &out[i];
			r->start = start;
			r->end = start + size;
			uint16_t sym = alias ? alias : GL_GET(c, symbol);
			r->symbol = sym == GL_ERROR_SYMBOL ? sym : lang->public_symbol_map[sym];
			uint16_t field = 0;
			if (!extra) {
				field = gl_field_at(lang, f->prod, sci);
				for (uint32_t j = top; field == 0 && j > 0 && !st[j].self_stop; j--) {
					field = gl_field_at(lang, st[j - 1].prod, st[j].self_sci);
					if (field) res.fields_through_hidden++;
				}
			}
			r->field = (uint8_t)field;
			uint8_t flags = 0;
			if (errors && (GL_GET(c, is_missing) || (!inl && c.ptr->error_cost > 0))) {
				flags = GL_HAS_ERROR;
				if (GL_GET(c, is_missing)) flags |= GL_MISSING;
			}
			r->flags = flags;
			uint32_t below = nkids ? c.ptr->u.inner.visible_descendant_count : 0;
			r->next = i + 1 + below;
			i++;
			if (alias && !visible) res.aliased++;
			if (below == 0) continue;
		} else if (nkids == 0 || c.ptr->u.inner.visible_child_count == 0) {
			continue;
		}
		// Into the node's children.
		if (top + 1 == depth) {
			gl_frame *grown = malloc(sizeof(gl_frame) * (size_t)depth * 2);
			if (!grown) {
				i = 0;
				break;
			}
			memcpy(grown, st, sizeof(gl_frame) * depth);
			if (st != local) free(st);
			st = grown;
			depth *= 2;
		}
		top++;
		gl_push(&st[top], lang, c, start, sci, visible || alias || extra);
	}
	res.written = i;
	if (st != local) free(st);
	return res;
}
*/
import "C"

import (
	"fmt"
	"runtime/debug"
	"sync"
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
	if directWalk() {
		if flat, _, ok := flattenDirect(root, buf); ok {
			return flat
		}
	}
	return flattenCursor(root, buf)
}

// flattenCursor is flatten with tree-sitter's cursor (gl_flatten).
func flattenCursor(root *sitter.Node, buf []flatNode) []flatNode {
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

// directStats counts what the direct walk met that a probe must exercise:
// nodes visible only by an alias, and fields found through a hidden
// parent.
type directStats struct{ aliased, fieldsThroughHidden int }

// flattenDirect is flatten with the direct walk (gl_flatten_direct), and
// false if it did not write the tree's count of nodes.
func flattenDirect(root *sitter.Node, buf []flatNode) ([]flatNode, directStats, bool) {
	n := *(*C.gl_node)(unsafe.Pointer(root))
	res := C.gl_flatten_direct(n, unsafe.SliceData(buf), C.uint32_t(len(buf)))
	if int(res.need) > len(buf) {
		buf = make([]flatNode, int(res.need)+int(res.need)/8)
		res = C.gl_flatten_direct(n, unsafe.SliceData(buf), C.uint32_t(len(buf)))
	}
	st := directStats{aliased: int(res.aliased), fieldsThroughHidden: int(res.fields_through_hidden)}
	return buf[:res.written], st, res.written == res.need
}

// directLayout is the version of the tree-sitter binding (and of the
// tree-sitter library it compiles in) whose internal layout the direct
// walk declares. TestDirectWalkLayoutVersion fails when go.mod asks for
// another.
const (
	bindingModule = "github.com/tree-sitter/go-tree-sitter"
	directLayout  = "v0.25.0"
)

// The grammar ABIs whose TSLanguage starts with the fields gl_language
// declares (tree-sitter's generated parsers since ABI 13; v0.25.0 reads 13
// to 15).
const (
	minDirectABI = 13
	maxDirectABI = 15
)

// directWalk says whether flatten uses the direct walk: on a machine
// whose layout the C declarations describe, with the binding they were
// written for (as far as the build records it: a test binary records no
// dependencies, and TestDirectWalkLayoutVersion checks go.mod's instead),
// and when the direct walk copies the probe trees exactly as the cursor
// does. Otherwise every tree goes through the cursor.
var directWalk = sync.OnceValue(func() bool {
	return orFalse(func() bool {
		bi, _ := debug.ReadBuildInfo()
		return directPlatform() && bindingIs(bi, directLayout) && directProbe() == nil
	})
})

// orFalse is f(), or false if f panics. A probe that panics (the cursor's
// counts disagreeing) leaves the cursor in charge, as a probe that fails
// does: a panic in directWalk's once would come back from every copy of
// the process.
func orFalse(f func() bool) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return f()
}

// directPlatform says whether this machine lays tree-sitter's subtrees out
// as the direct walk declares them.
func directPlatform() bool { return bool(C.gl_direct_platform()) }

// bindingIs says whether a binary with build information bi was built
// with that version of the binding, unreplaced, or records nothing to say
// otherwise (bi is nil, or lists no dependencies).
func bindingIs(bi *debug.BuildInfo, version string) bool {
	if bi == nil {
		return true
	}
	for _, d := range bi.Deps {
		if d.Path == bindingModule {
			return d.Version == version && d.Replace == nil
		}
	}
	return true
}

// directProbeSources are texts whose trees hold what the direct walk reads
// in its own way: nodes visible by an alias (print and exec as names,
// patterns), fields found through hidden nodes, extras (comments, line
// continuations), inline and heap leaves, and ERROR and MISSING nodes.
var directProbeSources = []string{
	`import a.b as c
from . import (d, e as f)  # comment
print(exec, match, type)
match x:
    case [1, *rest] | {"k": v, **kw} if v:
        pass
    case Point(x=0, y=_) as p:
        pass
@dec(a, *b, **c)
async def f(x: int = 1, /, *a, k, **kw) -> "t":
    async with a as (b, c):
        yield from [y async for y in z if y]
    return lambda q, *r: q \
        if r else not q
class C(B, metaclass=M):
    v: list[int] = [1, 2][::2]
    t = f"{v!r:>{w}}" b"x" 'y'
try:
    del a[0], b.c
except* (E, F) as g:
    raise G from g
finally:
    global h; nonlocal i
type T[U: int, *V, **W] = dict[U, V]
x = y if z else (w := 1)
`,
	"def f(:\n    x = [1, 2\nclass A(B:\n    pass\nprint 'old'\nexec code in ns\n",
}

// directProbe checks the direct walk against the cursor on the probe
// sources: nil if the grammar's ABI is one whose TSLanguage starts as
// declared, every tree is copied the same, and at least one node visible
// only by an alias and one field through a hidden node were met.
func directProbe() error {
	if abi := loadGrammar().lang.AbiVersion(); abi < minDirectABI || abi > maxDirectABI {
		return fmt.Errorf("the grammar's ABI is %d, not %d to %d", abi, minDirectABI, maxDirectABI)
	}
	p := NewParser(Options{})
	defer p.Close()
	var seen directStats
	for _, src := range directProbeSources {
		tree, _ := p.parseTree([]byte(src), nil, nil)
		if tree == nil {
			return fmt.Errorf("the probe %.20q did not parse", src)
		}
		want := flattenCursor(tree.RootNode(), nil)
		got, st, ok := flattenDirect(tree.RootNode(), nil)
		tree.Close()
		if !ok {
			return fmt.Errorf("the probe %.20q: the direct walk wrote %d of %d nodes", src, len(got), len(want))
		}
		if i := firstDifference(got, want); i >= 0 {
			return fmt.Errorf("the probe %.20q: node %d is %+v directly, %+v by the cursor", src, i, got[i], want[i])
		}
		seen.aliased += st.aliased
		seen.fieldsThroughHidden += st.fieldsThroughHidden
	}
	if seen.aliased == 0 || seen.fieldsThroughHidden == 0 {
		return fmt.Errorf("the probes met %d aliased nodes and %d fields through hidden nodes", seen.aliased, seen.fieldsThroughHidden)
	}
	return nil
}

// firstDifference is the index of the first node where a and b differ, or
// -1 if they are the same.
func firstDifference(a, b []flatNode) int {
	for i := range max(len(a), len(b)) {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i
		}
	}
	return -1
}

// cNode and cCursor are cwalk's C copies of tree-sitter's TSNode and
// TSTreeCursor, named for the test that checks their layout.
type (
	cNode   = C.gl_node
	cCursor = C.gl_cursor
)
