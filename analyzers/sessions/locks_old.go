//go:build ignore

package sessions

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

func init() {
	Checks = append(Checks, gym.Check{Rule: UnserializedSeedClose, Run: runUnserializedSeedClose})
}

// recordAccess is a read or a write of one record of a per-session
// container.
type recordAccess struct {
	states []State
	key    string
	span   pyscan.Span
	at     int    // when the access happens, as an offset: a store happens after its value
	what   string // "self.X[k]", for messages
	fence  bool   // a read of the session's fence, which stands for every container
}

func runUnserializedSeedClose(v *gym.View) []diag.Diagnostic {
	var out []diag.Diagnostic
	done := map[*pyscan.Function]bool{}
	for _, s := range ResourcesServers(v) {
		states := States(v, s)
		if len(states) == 0 {
			continue
		}
		ss := newStateSet(states)
		for _, method := range []string{SeedMethod, CloseMethod} {
			owner, fn, ok := Override(v, s.Class, method)
			if !ok || done[fn] || owner.Module.SyntaxError != nil {
				continue
			}
			done[fn] = true
			out = append(out, unserialized(v, s, owner, fn, ss)...)
		}
	}
	return out
}

func unserialized(v *gym.View, s gym.Server, owner gym.ClassRef, fn *pyscan.Function, ss *stateSet) []diag.Diagnostic {
	recv := fn.Receiver()
	m := owner.Module
	src, err := v.Source(m.Path)
	if err != nil || len(fn.Awaits) == 0 {
		return nil
	}
	reads, writes := recordAccesses(fn, recv, ss, src)
	reads = append(reads, fenceReads(v, owner, fn)...)
	sort.SliceStable(reads, func(i, j int) bool { return reads[i].at < reads[j].at })
	if len(reads) == 0 || len(writes) == 0 {
		return nil
	}
	locks := lockBodies(v, owner, fn)
	var out []diag.Diagnostic
	reported := map[string]bool{}
	for _, w := range writes {
		attr := w.states[0].Attr
		if reported[attr] {
			continue
		}
	search:
		for _, r := range reads {
			if r.span.Start.Offset >= w.at || !r.fence && !sameContainer(r.states, w.states) || !sameKey(v, m, fn, r.key, w.key) {
				continue
			}
			for _, a := range fn.Awaits {
				if a.Span.End.Offset <= r.span.Start.Offset || a.Span.End.Offset > w.at {
					continue
				}
				if heldAcross(locks, r.span, a.Span, w.span) {
					continue
				}
				reported[attr] = true
				start, end := Span(a.Span)
				d := UnserializedSeedClose.New(m.Path, start, end, fmt.Sprintf(
					"%s.%s reads %s (line %d), awaits here, then writes %s (line %d) without holding the session's lock: a close and a seed (or two seeds) for the same session can interleave at this await, so a closed session is re-created or a seed overwrites another; hold `async with %s.locked(%s):` (a ResourcesSessionLocks) from the read to the write, in the seed and in the close",
					owner.Class.Name, fn.Name, r.what, r.span.Start.Line, w.what, w.span.Start.Line, lockAttr(v, s.Class, recv), lockID(r.key)))
				d.Related = []diag.Related{
					RelatedAt(m, r.span, "the session's record is read here"),
					RelatedAt(m, w.span, "and written here, after the await"),
				}
				for _, rel := range ss.related(w.states) {
					if rel.Start.Offset != w.span.Start.Offset {
						d.Related = append(d.Related, rel)
					}
				}
				if owner.Class != s.Class.Class {
					d.Related = append(d.Related, RelatedAt(s.Class.Module, s.Class.Class.NameSpan,
						"server "+s.Class.Class.Name+" inherits this "+fn.Name))
				}
				out = append(out, d)
				break search
			}
		}
	}
	return out
}

// lockID is the id to lock on: the read's key, or
// body.resources_session_id when it is not a short expression.
func lockID(key string) string {
	if key != "" && len(key) <= 40 && !strings.ContainsAny(key, "\n") {
		return key
	}
	return "body.resources_session_id"
}

// lockAttr names the server's ResourcesSessionLocks attribute
// ("self._locks"): a class attribute of the server or a repository
// ancestor annotated with or assigned the framework class, else the
// suggestion self._session_locks.
func lockAttr(v *gym.View, server gym.ClassRef, recv string) string {
	if recv == "" {
		recv = "self"
	}
	mro, _ := v.MRO(server)
	for _, a := range mro {
		if a.Kind != gym.Own || a.Class.Class == nil {
			continue
		}
		for _, at := range a.Class.Class.Attrs {
			if at.Annotation != "" && Framework(v, a.Class.Module, leadingDotted(at.Annotation)) == "ResourcesSessionLocks" {
				return recv + "." + at.Name
			}
			if at.Value == nil {
				continue
			}
			// `= ResourcesSessionLocks()`, `= PrivateAttr(default_factory=ResourcesSessionLocks)`
			for _, name := range dottedNames.FindAllString(at.Value.Text, -1) {
				if Framework(v, a.Class.Module, name) == "ResourcesSessionLocks" {
					return recv + "." + at.Name
				}
			}
		}
	}
	// self._locks = ResourcesSessionLocks() in a method (model_post_init).
	for _, a := range mro {
		if a.Kind != gym.Own || a.Class.Class == nil {
			continue
		}
		for _, fn := range a.Class.Class.Methods {
			r := fn.Receiver()
			for _, st := range fn.Stores {
				if st.Op != "=" || st.Key != nil || st.Value == nil || r == "" {
					continue
				}
				name, ok := strings.CutPrefix(st.Target.Dotted, r+".")
				if !ok || strings.Contains(name, ".") {
					continue
				}
				for _, n := range dottedNames.FindAllString(st.Value.Text, -1) {
					if Framework(v, a.Class.Module, n) == "ResourcesSessionLocks" {
						return recv + "." + name
					}
				}
			}
		}
	}
	return recv + "._session_locks"
}

// recordAccesses collects a function's reads and writes of per-session
// records, in source order.
func recordAccesses(fn *pyscan.Function, recv string, ss *stateSet, src []byte) (reads, writes []recordAccess) {
	for _, st := range fn.Stores {
		if st.Key == nil {
			continue
		}
		sts := ss.lookup(recv, st.Target.Dotted)
		if len(sts) == 0 {
			continue
		}
		acc := recordAccess{states: sts, key: st.Key.Text, span: st.Span, at: st.Span.End.Offset, what: oneLine(st.Target.Text)}
		if st.Value != nil && st.Value.Span.End.Offset > acc.at {
			acc.at = st.Value.Span.End.Offset
		}
		if st.Op == "del" {
			acc.what = "del " + acc.what
		}
		writes = append(writes, acc)
		if st.Op != "=" && st.Op != "del" {
			// x[k] += v reads the record first.
			r := acc
			r.at = st.Span.Start.Offset
			reads = append(reads, r)
		}
	}
	for _, s := range fn.Subscripts {
		if storeTarget(fn, s.Span) {
			continue
		}
		if sts := ss.lookup(recv, s.Object.Dotted); len(sts) > 0 {
			reads = append(reads, recordAccess{states: sts, key: s.Key.Text, span: s.Span, at: s.Span.Start.Offset, what: oneLine(s.Object.Text) + "[" + oneLine(s.Key.Text) + "]"})
		}
	}
	for _, c := range fn.Calls {
		d := c.Callee.Dotted
		i := strings.LastIndexByte(d, '.')
		if i < 0 || len(c.Args) == 0 || strings.HasPrefix(c.Args[0].Text, "*") {
			continue
		}
		sts := ss.lookup(recv, d[:i])
		if len(sts) == 0 {
			continue
		}
		acc := recordAccess{states: sts, key: c.Args[0].Text, span: c.Span, at: c.Span.Start.Offset, what: oneLine(c.Callee.Text) + "(" + oneLine(c.Args[0].Text) + ")"}
		switch d[i+1:] {
		case "get", "__getitem__", "__contains__":
			reads = append(reads, acc)
		case "pop":
			// Takes the record: a read, then a write.
			reads = append(reads, acc)
			acc.at = c.Span.End.Offset
			writes = append(writes, acc)
		case "setdefault", "__setitem__", "__delitem__":
			acc.at = c.Span.End.Offset
			writes = append(writes, acc)
		}
	}
	// k in self.X, k not in self.X: read from the source before the reference.
	for _, r := range fn.Refs {
		sts := ss.lookup(recv, r.Dotted)
		if len(sts) == 0 || storeTarget(fn, r.Span) || r.Span.Start.Offset > len(src) {
			continue
		}
		lineStart := strings.LastIndexByte(string(src[:r.Span.Start.Offset]), '\n') + 1
		sm := inTestRe.FindStringSubmatch(string(src[lineStart:r.Span.Start.Offset]))
		if sm == nil {
			continue
		}
		reads = append(reads, recordAccess{states: sts, key: sm[1], span: r.Span, at: r.Span.Start.Offset, what: sm[1] + " in " + r.Dotted})
	}
	sort.SliceStable(reads, func(i, j int) bool { return reads[i].at < reads[j].at })
	sort.SliceStable(writes, func(i, j int) bool { return writes[i].at < writes[j].at })
	return reads, writes
}

// fenceReads returns the fence checks of a function:
// ResourcesSessionFences.raise_if_fenced(k) and .get(k) on any receiver of
// a class that knows ResourcesSessionFences.
func fenceReads(v *gym.View, owner gym.ClassRef, fn *pyscan.Function) []recordAccess {
	var out []recordAccess
	for _, c := range fn.Calls {
		if len(c.Args) == 0 || strings.HasPrefix(c.Args[0].Text, "*") {
			continue
		}
		if FrameworkCall(v, owner, c, "ResourcesSessionFences.raise_if_fenced") || FrameworkCall(v, owner, c, "ResourcesSessionFences.get") {
			out = append(out, recordAccess{key: c.Args[0].Text, span: c.Span, at: c.Span.Start.Offset,
				what: "the fence, " + oneLine(c.Callee.Text) + "(" + oneLine(c.Args[0].Text) + ")", fence: true})
		}
	}
	return out
}

var dottedNames = regexp.MustCompile(`[A-Za-z_][\w.]*`)

// inTestRe finds the key of `k in` / `k not in` just before a container.
var inTestRe = regexp.MustCompile(`([A-Za-z_][\w.]*(?:\[[^\[\]]*\])?)\s+(?:not\s+)?in\s*$`)

func sameContainer(a, b []State) bool {
	for _, x := range a {
		for _, y := range b {
			if x.Attr == y.Attr && x.Class.Class == y.Class.Class {
				return true
			}
			if attrKey(x.Method.Receiver(), x.Attr) == attrKey(y.Method.Receiver(), y.Attr) {
				return true
			}
		}
	}
	return false
}

// sameKey reports whether two key expressions of one function name the
// same record: the same text, or both the session's id.
func sameKey(v *gym.View, m *pyscan.Module, fn *pyscan.Function, a, b string) bool {
	if oneLine(a) == oneLine(b) {
		return true
	}
	ka := ClassifyKey(v, m, fn, pyscan.Expr{Text: a})
	kb := ClassifyKey(v, m, fn, pyscan.Expr{Text: b})
	return ka == KeySession && kb == KeySession
}

// lockBodies returns the bodies of the with statements of fn that hold a
// lock: ResourcesSessionLocks.locked(...), or a context expression whose
// text names a lock.
func lockBodies(v *gym.View, owner gym.ClassRef, fn *pyscan.Function) []pyscan.Span {
	var out []pyscan.Span
	for _, w := range fn.Withs {
		for _, it := range w.Items {
			if it.Call && FrameworkCallee(v, owner, it.Dotted, locksName) || strings.Contains(strings.ToLower(it.Text), "lock") {
				out = append(out, w.Body)
				break
			}
		}
	}
	return out
}

// heldAcross reports whether one lock body holds the read, the await and
// the write.
func heldAcross(locks []pyscan.Span, spans ...pyscan.Span) bool {
	for _, l := range locks {
		all := true
		for _, s := range spans {
			if !Within(s, l) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}
