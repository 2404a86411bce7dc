package pyscan

// One crossing per parse.
//
// tree-sitter asks its caller for the text (a read callback) and, every
// 100 parse operations, whether to go on (a progress callback). Through
// the binding's ParseWithOptions both are calls from C back into Go, and
// the binding copies every chunk the lexer reads twice (into a Go string,
// then into C memory, freed when the parse ends): on ordinary code that
// was 17% of the bytes a parse and its model allocate, and about one cgo
// callback per 40 bytes of source. gl_parse below runs the whole parse in
// one cgo call instead: the callbacks are C functions, the text is read in
// place (the Go slice, which cgo keeps in place for the call: tree-sitter
// keeps no pointer into the input once the parse returns), and the meter
// of parse.go counts its steps in C (gl_step).
//
// The scan's budget is shared by the parses of several goroutines: its
// count is the Budget's atomic int64 (a field of Go memory without
// pointers, which C may update during the call), added to with the same
// atomic operations Go's sync/atomic uses.
//
// The binding's Parser and Tree are structs of one field, the C pointer
// (TestBindingLayout checks it): the parser is taken from it and the new
// tree is handed back in one.

/*
#define _GNU_SOURCE
#include <stdint.h>
#include <stdbool.h>
#include <time.h>
#ifdef __linux__
#include <sys/resource.h>
#endif

// Layout-compatible copies of tree-sitter's public TSPoint,
// TSParseState, TSParseOptions and TSInput (tree_sitter/api.h, 0.25).
typedef struct { uint32_t row, column; } gl_point;
typedef struct { void *payload; uint32_t current_byte_offset; bool has_error; } gl_parse_state;
typedef struct { void *payload; bool (*progress_callback)(gl_parse_state *); } gl_parse_options;
typedef struct {
	void *payload;
	const char *(*read)(void *, uint32_t, gl_point, uint32_t *);
	int encoding; // TSInputEncodingUTF8
	void *decode;
} gl_input;

// Defined by the tree-sitter core library; weak for the reason alloc.go
// gives.
extern void *ts_parser_parse_with_options(void *, const void *, gl_input, gl_parse_options) __attribute__((weak));

// The StopReason values of parse.go.
enum { GL_GO_ON = 0, GL_FILE = 1, GL_SCAN = 2, GL_CPU = 3 };

// The limits of one parse (see meter in parse.go); times in nanoseconds.
typedef struct {
	int64_t budget, read_limit, scan_limit;
	int64_t cap_cpu, cpu_base, cpu_per_step, cpu_every;
	uint32_t chunk;
} gl_limits;

// What a parse did, and why it stopped if it did.
typedef struct {
	void *tree;
	int64_t steps, read, cpu0, cpu_used, cpu_allowed;
	bool started;
	uint8_t stop;
} gl_result;

typedef struct {
	gl_limits lim;
	const char *src;
	uint32_t n;
	int64_t *scan_spent; // NULL: no scan budget
	int64_t steps, read, cpu0, cpu_used, cpu_allowed;
	bool started;
	uint8_t stop;
} gl_meter;

// gl_thread_cpu is threadCPU of cputime_linux.go: the calling thread's
// user and system time; elsewhere the time elapsed (cputime_other.go).
static int64_t gl_thread_cpu(void) {
#if defined(__linux__) && defined(RUSAGE_THREAD)
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru) != 0) return 0;
	return ((int64_t)ru.ru_utime.tv_sec + (int64_t)ru.ru_stime.tv_sec) * 1000000000 +
	       ((int64_t)ru.ru_utime.tv_usec + (int64_t)ru.ru_stime.tv_usec) * 1000;
#elif defined(_WIN32)
	return (int64_t)clock() * (1000000000 / CLOCKS_PER_SEC);
#else
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
#endif
}

// gl_step counts n steps of the parse and reports whether it may go on:
// no budget has run out (see meter in parse.go).
static bool gl_step(gl_meter *m, int64_t n) {
	if (m->stop != GL_GO_ON) return false;
	if (!m->started) {
		m->started = true;
		m->cpu0 = gl_thread_cpu();
	}
	m->steps += n;
	if (m->scan_spent && __atomic_add_fetch(m->scan_spent, n, __ATOMIC_SEQ_CST) > m->lim.scan_limit) {
		m->stop = GL_SCAN;
		return false;
	}
	if (m->steps > m->lim.budget) {
		m->stop = GL_FILE;
		return false;
	}
	if (m->steps % m->lim.cpu_every == 0) {
		int64_t used = gl_thread_cpu() - m->cpu0;
		int64_t allowed = m->lim.cpu_base + m->steps * m->lim.cpu_per_step;
		if (allowed > m->lim.cap_cpu) allowed = m->lim.cap_cpu;
		if (used > allowed) {
			m->stop = GL_CPU;
			m->cpu_used = used;
			m->cpu_allowed = allowed;
			// The scan is charged the whole budget of a file whose steps
			// did not tell its cost.
			if (m->scan_spent) __atomic_add_fetch(m->scan_spent, m->lim.budget - m->steps, __ATOMIC_SEQ_CST);
			return false;
		}
	}
	return true;
}

// gl_read hands the lexer the text from i on, at most a chunk, each read a
// step; nothing once a budget has run out (the file then seems to end, and
// the parse stops at its next progress call).
static const char *gl_read(void *payload, uint32_t i, gl_point p, uint32_t *bytes_read) {
	gl_meter *m = payload;
	*bytes_read = 0;
	if (i >= m->n || !gl_step(m, 1)) return "";
	uint32_t end = m->n - i > m->lim.chunk ? i + m->lim.chunk : m->n;
	m->read += end - i;
	if (m->read > m->lim.read_limit) {
		m->stop = GL_FILE;
		return "";
	}
	*bytes_read = end - i;
	return m->src + i;
}

static bool gl_progress(gl_parse_state *s) { return !gl_step(s->payload, 1); }

// gl_parse parses src[0:n] with parser, from old (NULL: afresh).
static gl_result gl_parse(void *parser, const void *old, const char *src, uint32_t n, int64_t *scan_spent, gl_limits lim) {
	gl_meter m = { .lim = lim, .src = src, .n = n, .scan_spent = scan_spent };
	gl_input in = { &m, gl_read, 0, 0 };
	gl_parse_options o = { &m, gl_progress };
	void *tree = ts_parser_parse_with_options(parser, old, in, o);
	gl_result r = { tree, m.steps, m.read, m.cpu0, m.cpu_used, m.cpu_allowed, m.started, m.stop };
	return r;
}
*/
import "C"

import (
	"time"
	"unsafe"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// cParse runs tree-sitter on src with p's parser, from old (nil: afresh),
// metered by m (its budget, readLimit, capCPU and scan set), and fills m
// with what the parse did: its steps, the bytes read, and why it stopped
// (m.stop) if a budget ran out. The tree is nil when the parse stopped in
// its progress callback or tree-sitter gave up.
func (p *Parser) cParse(src []byte, old *sitter.Tree, m *meter) *sitter.Tree {
	lim := C.gl_limits{
		budget:       C.int64_t(m.budget),
		read_limit:   C.int64_t(m.readLimit),
		cap_cpu:      C.int64_t(m.capCPU),
		cpu_base:     C.int64_t(cpuBase),
		cpu_per_step: C.int64_t(cpuPerStep),
		cpu_every:    C.int64_t(cpuEvery),
		chunk:        C.uint32_t(readChunk),
	}
	var spent *C.int64_t
	if m.scan != nil {
		lim.scan_limit = C.int64_t(m.scan.limit)
		spent = (*C.int64_t)(unsafe.Pointer(&m.scan.spent))
	}
	var oldTree unsafe.Pointer
	if old != nil {
		oldTree = innerOf(unsafe.Pointer(old))
	}
	r := C.gl_parse(innerOf(unsafe.Pointer(p.p)), oldTree, (*C.char)(unsafe.Pointer(unsafe.SliceData(src))), C.uint32_t(len(src)), spent, lim)
	m.steps, m.read = int64(r.steps), int64(r.read)
	m.started, m.cpu0 = bool(r.started), time.Duration(r.cpu0)
	switch StopReason(r.stop) {
	case FileBudgetRanOut:
		m.stop = &ParseStop{Reason: FileBudgetRanOut, Steps: m.steps, Budget: m.budget, ReadLimit: m.readLimit, Read: m.read}
	case ScanBudgetRanOut:
		m.stop = &ParseStop{Reason: ScanBudgetRanOut, Steps: m.steps, Budget: m.scan.limit}
	case ProcessorTimeRanOut:
		m.stop = &ParseStop{Reason: ProcessorTimeRanOut, Steps: m.steps, CPU: time.Duration(r.cpu_used), Allowed: time.Duration(r.cpu_allowed)}
	}
	if r.tree == nil {
		return nil
	}
	t := new(sitter.Tree)
	*(*unsafe.Pointer)(unsafe.Pointer(t)) = r.tree
	return t
}

// innerOf is the C pointer in the binding's Parser or Tree at x, its one
// field.
func innerOf(x unsafe.Pointer) unsafe.Pointer { return *(*unsafe.Pointer)(x) }
