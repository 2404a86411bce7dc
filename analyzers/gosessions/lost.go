package gosessions

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"reflect"
	"strings"

	"github.com/gymlint/gymlint/analyzers/gonative"
	"github.com/gymlint/gymlint/analyzers/gostate"
	"github.com/gymlint/gymlint/diag"
	"golang.org/x/tools/go/analysis"
)

// LostSessionScored is rule GL352.
var LostSessionScored = &diag.Rule{
	Code: "GL352", Name: "go-lost-session-scored", Analyzer: AnalyzerName, Severity: diag.Error,
	Summary: "A Go verify handler answers a session it no longer holds with a reward that is not masked.",
	Doc:     ruleDoc("GL352"),
}

func (c *checker) checkLostSessions() {
	for _, h := range c.handlersOf(gonative.RouteVerify) {
		for _, branch := range c.sessionLookups(h).Branches(h.Body, gostate.Absent) {
			c.checkLostVerify(branch)
		}
	}
	for _, h := range c.handlersOf(gonative.RouteTool) {
		for _, branch := range c.sessionLookups(h).Branches(h.Body, gostate.Absent) {
			c.checkLostTool(branch)
		}
	}
}

// rewardShape says where a composite literal keeps its reward and mask.
type rewardShape struct {
	isMap     bool
	reward    bool
	maskField string // the struct field of mask_sample; "" when none
}

func (c *checker) rewardShape(lit *ast.CompositeLit) rewardShape {
	t := c.pass.TypesInfo.TypeOf(lit)
	if t == nil {
		return rewardShape{}
	}
	switch u := t.Underlying().(type) {
	case *types.Struct:
		var sh rewardShape
		for i := range u.NumFields() {
			f := u.Field(i)
			tag := jsonName(u.Tag(i))
			if f.Name() == "Reward" || tag == "reward" {
				sh.reward = true
			}
			if f.Name() == "MaskSample" || tag == "mask_sample" {
				sh.maskField = f.Name()
			}
		}
		return sh
	case *types.Map:
		if b, ok := u.Key().Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
			return rewardShape{}
		}
		sh := rewardShape{isMap: true, maskField: `"mask_sample"`}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok && c.stringConst(kv.Key) == "reward" {
				sh.reward = true
			}
		}
		return sh
	}
	return rewardShape{}
}

func jsonName(tag string) string {
	name, _, _ := strings.Cut(reflect.StructTag(tag).Get("json"), ",")
	return name
}

func (c *checker) stringConst(e ast.Expr) string {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return ""
	}
	return constant.StringVal(tv.Value)
}

func (c *checker) isTrue(e ast.Expr) bool {
	tv, ok := c.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Bool && constant.BoolVal(tv.Value)
}

// maskValue returns the element of lit that sets the mask, or nil.
func (c *checker) maskValue(lit *ast.CompositeLit, sh rewardShape) ast.Expr {
	for i, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		switch {
		case !ok && !sh.isMap:
			// An unkeyed struct literal: elements are fields in order.
			if st, ok := c.pass.TypesInfo.TypeOf(lit).Underlying().(*types.Struct); ok && i < st.NumFields() && st.Field(i).Name() == sh.maskField {
				return e
			}
		case ok && sh.isMap:
			if c.stringConst(kv.Key) == "mask_sample" {
				return kv.Value
			}
		case ok:
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == sh.maskField {
				return kv.Value
			}
		}
	}
	return nil
}

// checkLostVerify reports the unmasked rewards of a missing-session branch
// of a verify handler.
func (c *checker) checkLostVerify(branch []ast.Stmt) {
	// resp.MaskSample = true or resp["mask_sample"] = true in the branch
	// masks every reward it builds.
	maskedLater := false
	for _, s := range branch {
		gostate.InspectOwn(s, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if !c.isTrue(as.Rhs[i]) {
					continue
				}
				switch l := ast.Unparen(l).(type) {
				case *ast.SelectorExpr:
					if l.Sel.Name == "MaskSample" {
						maskedLater = true
					}
					if sel, ok := c.pass.TypesInfo.Selections[l]; ok {
						if v, ok := sel.Obj().(*types.Var); ok && v.IsField() && fieldTagIs(sel, "mask_sample") {
							maskedLater = true
						}
					}
				case *ast.IndexExpr:
					if c.stringConst(l.Index) == "mask_sample" {
						maskedLater = true
					}
				}
			}
			return true
		})
	}
	if maskedLater {
		return
	}
	for _, s := range branch {
		gostate.InspectOwn(s, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			sh := c.rewardShape(lit)
			if !sh.reward {
				return true
			}
			mv := c.maskValue(lit, sh)
			if mv != nil && c.isTrue(mv) {
				return true
			}
			msg := "the verify handler answers a session it no longer holds with a reward that is not masked, which trains on it as a real score"
			help := "set mask_sample: true (with failure_kind and failure_reason) so that the sample is left out"
			if sh.maskField == "" {
				help = fmt.Sprintf("add a mask_sample field to %s, and %s", types.TypeString(c.pass.TypesInfo.TypeOf(lit), types.RelativeTo(c.pass.Pkg)), help)
			}
			c.report(LostSessionScored, lit.Pos(), lit.End(), msg, help, c.maskFix(lit, sh, mv))
			return true
		})
	}
}

// fieldTagIs reports whether the selected field's json name is name.
func fieldTagIs(sel *types.Selection, name string) bool {
	t := deref(sel.Recv())
	idx := sel.Index()
	for i, x := range idx {
		st, ok := t.Underlying().(*types.Struct)
		if !ok || x >= st.NumFields() {
			return false
		}
		if i == len(idx)-1 {
			return jsonName(st.Tag(x)) == name
		}
		t = deref(st.Field(x).Type())
	}
	return false
}

// maskFix sets the mask of a keyed literal to true.
func (c *checker) maskFix(lit *ast.CompositeLit, sh rewardShape, mv ast.Expr) []analysis.SuggestedFix {
	if sh.maskField == "" {
		return nil
	}
	keyed := len(lit.Elts) == 0 || sh.isMap
	if len(lit.Elts) > 0 {
		_, keyed = lit.Elts[0].(*ast.KeyValueExpr)
	}
	if !keyed {
		return nil
	}
	var edit analysis.TextEdit
	switch {
	case mv != nil:
		edit = analysis.TextEdit{Pos: mv.Pos(), End: mv.End(), NewText: []byte("true")}
	case len(lit.Elts) == 0:
		edit = analysis.TextEdit{Pos: lit.Lbrace + 1, End: lit.Lbrace + 1, NewText: []byte(sh.maskField + ": true")}
	default:
		last := lit.Elts[len(lit.Elts)-1]
		text := ", " + sh.maskField + ": true"
		if c.multiline(lit) {
			text = ",\n" + c.indentOf(last) + sh.maskField + ": true"
		}
		edit = analysis.TextEdit{Pos: last.End(), End: last.End(), NewText: []byte(text)}
	}
	return []analysis.SuggestedFix{{Message: "Set mask_sample to true", TextEdits: []analysis.TextEdit{edit}}}
}

// multiline reports whether the closing brace of lit is on another line
// than its last element.
func (c *checker) multiline(lit *ast.CompositeLit) bool {
	fset := c.pass.Fset
	last := lit.Elts[len(lit.Elts)-1]
	return fset.Position(last.End()).Line != fset.Position(lit.Rbrace).Line
}

// indentOf returns the leading white space of the line n starts on.
func (c *checker) indentOf(n ast.Node) string {
	tf := c.pass.Fset.File(n.Pos())
	if tf == nil {
		return ""
	}
	line := tf.Line(n.Pos())
	start := tf.LineStart(line)
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return ""
	}
	off := tf.Offset(start)
	end := off
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[off:end])
}
