package sessions

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/pyscan"
)

// UnregisteredFailureKind is rule GL316.
var UnregisteredFailureKind = &diag.Rule{
	Code: "GL316", Name: "unregistered-failure-kind", Analyzer: Analyzer, Severity: diag.Warning,
	Needs:   []string{contract.FailureVocabulary},
	Summary: "A failure_kind literal is not in the framework's registered failure vocabulary, so the label is lost to grouping.",
	Doc:     ruleDoc("GL316"),
}

func runUnregisteredFailureKind(v *gym.View) []diag.Diagnostic {
	voc := frameworkVocabulary(v)
	if voc == nil {
		return nil
	}
	f := facts.Of(v)
	var out []diag.Diagnostic
	for _, m := range resourcesModules(v) {
		f.EachCall(m, func(fn *facts.Func, c *pyscan.Call) {
			arg := failureKindArg(f, m, fn, c)
			if arg == nil {
				return
			}
			lit, ok := arg.(*pyscan.Constant)
			if !ok || lit.Kind != pyscan.ConstStr || voc.Has(lit.Value) {
				return
			}
			start, end := gym.Range(m, lit.Span)
			d := UnregisteredFailureKind.New(m.Path, start, end, fmt.Sprintf(
				"failure_kind %s is not in the framework's registered failure vocabulary (%s)", clip(strconv.Quote(lit.Value), 60), voc.Name))
			d.Help = fmt.Sprintf("use a registered kind (%s), through the framework's constant, or register %s in %s",
				clip(strings.Join(voc.Kinds, ", "), 100), clip(strconv.Quote(lit.Value), 60), voc.Name)
			d.Related = []diag.Related{gym.Related(voc.Module, voc.Binding.Span, "the registered failure kinds")}
			out = append(out, d)
		})
	}
	return out
}

// frameworkVocabulary is the failure vocabulary of the repository's
// framework, read from the BaseVerifyResponse where the contract found its
// validator, when that lies in the repository.
func frameworkVocabulary(v *gym.View) *facts.Vocabulary {
	fw := v.Options.Framework
	if !fw.Known() || (fw.Where != contract.InRepository && fw.Where != contract.FrameworkPath) {
		return nil
	}
	loc, ok := fw.Facts[contract.FailureVocabulary]
	if !ok {
		return nil
	}
	i := strings.LastIndexByte(loc, ':')
	if i < 0 || strings.HasPrefix(loc, "/") {
		return nil
	}
	m, err := v.Module(loc[:i])
	if err != nil || m == nil || m.SyntaxError != nil {
		return nil
	}
	for _, c := range m.Classes {
		if c.Name == contract.VerifyResponseClass && c.Method(contract.FailureValidator) != nil {
			return facts.FailureKinds(v, gym.ClassRef{Module: m, Class: c})
		}
	}
	return nil
}

// failureKindArg is the failure_kind a call passes, when it calls a verify
// response's constructor (by keyword), lost_session_verification or
// ResourcesSessionLostError (by keyword or second positional argument).
func failureKindArg(f *facts.Facts, m *pyscan.Module, fn *facts.Func, c *pyscan.Call) pyscan.Expr {
	d := pyscan.Dotted(c.Func)
	if d == "" {
		return nil
	}
	if fn != nil {
		first, _, _ := strings.Cut(d, ".")
		if f.IsLocal(fn, first) {
			return nil
		}
	}
	v := f.View()
	sym := v.Resolve(m, d)
	positional := false
	switch v.SymbolFrameworkName(sym) {
	case contract.LostSessionFunc, contract.SessionLostErrorClass:
		positional = true
	case contract.VerifyResponseClass, contract.MultiRewardResponseClass:
	default:
		if sym.Kind != gym.RepoClass || sym.Class == nil {
			return nil
		}
		if isResp, _, ok := responseKind(v, gym.ClassRef{Module: sym.Module, Class: sym.Class}); !ok || !isResp {
			return nil
		}
	}
	pos := 0
	for _, a := range c.Args {
		switch a.Kind {
		case pyscan.Keyword:
			if a.Name == contract.FailureKindField {
				return a.Value
			}
		case pyscan.Positional:
			if positional && pos == 1 {
				return a.Value
			}
			pos++
		default:
			// A * spread moves the positions.
			positional = false
		}
	}
	return nil
}
