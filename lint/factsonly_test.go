package lint_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRulesDecideFromFacts enforces that the rules decide from the model's
// facts, never from source text: no file of the analyzers (tests and
// testdata aside) imports regexp or tree-sitter, calls a Source method
// (module or view source text), or decides on source text: the text of a
// node (Text, SpanText) may go into messages and fix texts, but is never
// compared, switched on, or searched with the strings package.
func TestRulesDecideFromFacts(t *testing.T) {
	root := filepath.Join("..", "analyzers")
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "regexp" || strings.Contains(path, "tree-sitter") {
				t.Errorf("%s imports %s: rules decide from the model (pyscan, facts), never from patterns over source", fset.Position(imp.Pos()), path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if name := selectorName(n.Fun); name == "Source" {
					t.Errorf("%s calls Source: rules read the model, not the file's text", fset.Position(n.Pos()))
				}
				if pkg, fn := qualified(n.Fun); pkg == "strings" && fn != "Join" && fn != "Repeat" && fn != "Builder" {
					for _, a := range n.Args {
						if isTextCall(a) {
							t.Errorf("%s: strings.%s of source text: decide from the model's nodes instead", fset.Position(a.Pos()), fn)
						}
					}
				}
			case *ast.BinaryExpr:
				switch n.Op {
				case token.EQL, token.NEQ, token.LSS, token.GTR, token.LEQ, token.GEQ:
					if isTextCall(n.X) || isTextCall(n.Y) {
						t.Errorf("%s compares source text: decide from the model's nodes instead", fset.Position(n.Pos()))
					}
				}
			case *ast.SwitchStmt:
				if n.Tag != nil && isTextCall(n.Tag) {
					t.Errorf("%s switches on source text: decide from the model's nodes instead", fset.Position(n.Pos()))
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 20 {
		t.Fatalf("checked only %d files under %s: the walk is broken", checked, root)
	}
}

// selectorName is the selected name of x.Name, or "".
func selectorName(e ast.Expr) string {
	if s, ok := e.(*ast.SelectorExpr); ok {
		return s.Sel.Name
	}
	return ""
}

// qualified returns pkg and name of pkg.name.
func qualified(e ast.Expr) (string, string) {
	s, ok := e.(*ast.SelectorExpr)
	if !ok {
		return "", ""
	}
	id, ok := s.X.(*ast.Ident)
	if !ok {
		return "", ""
	}
	return id.Name, s.Sel.Name
}

// isTextCall reports whether e is a call of a Text or SpanText method.
func isTextCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	name := selectorName(c.Fun)
	return name == "Text" || name == "SpanText"
}
