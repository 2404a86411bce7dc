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
	Doc: `## What it does
Reports a string literal given as ` + "`failure_kind`" + ` that the framework's vocabulary does not register, in a
module of a resources server (its entrypoint, the modules it imports from the repository, the modules
of its server class's ancestors):

- a ` + "`failure_kind=`" + ` keyword of a verify response's constructor (a class whose method resolution order
  reaches the framework's ` + "`BaseVerifyResponse`" + `);
- the ` + "`failure_kind`" + ` of ` + "`lost_session_verification(reason, failure_kind)`" + ` or of
  ` + "`ResourcesSessionLostError(message, failure_kind)`" + `, by keyword or position.

The vocabulary is read from the framework when it is part of the repository: the collection that
` + "`BaseVerifyResponse._warn_on_unregistered_failure_kind`" + ` tests the value against (` + "`value not in FAILURE_KINDS`" + `),
a literal set, frozenset, tuple, list or dict of string literals and module constants. A framework
whose collection cannot be read that way, or that adds to it (a registration function, an augmented
assignment), gives no vocabulary, and nothing is reported. A kind given through a name (the
framework's ` + "`SESSION_EXPIRED`" + `, a constant of the server's) is not checked.

## Why it matters
The framework validates ` + "`failure_kind`" + ` and only warns about a name outside its vocabulary: a wrong
label is better than a lost failure. But the logs, metrics and dashboards that group masked samples
and lost sessions by kind know only the registered names, so a sample labelled ` + "`\"sandbox_gone\"`" + ` or a
misspelt ` + "`\"session_expierd\"`" + ` falls out of every group, and the warning is easy to miss among a run's logs.

## Example
` + "```python" + `
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("ttl over", failure_kind="expired")))   # reported
` + "```" + `

## How to fix
Use the framework's constant for the registered kind:
` + "```python" + `
            return BaseVerifyResponse(**(body.model_dump() | lost_session_verification("ttl over", failure_kind=SESSION_EXPIRED)))
` + "```" + `
or, when the failure is a new kind, register it in the framework's vocabulary.`,
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
		if c.Name == verifyResponseName && c.Method(facts.FailureValidator) != nil {
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
	case lostSessionName, "ResourcesSessionLostError":
		positional = true
	case verifyResponseName, multiRewardName:
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
			if a.Name == "failure_kind" {
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
