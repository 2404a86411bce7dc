package output

import (
	"bytes"
	"testing"

	"github.com/gymlint/gymlint/diag"
)

func TestEscape(t *testing.T) {
	if got, want := EscapeData("100% a:b,c\r\nd"), "100%25 a:b,c%0D%0Ad"; got != want {
		t.Errorf("EscapeData = %q, want %q", got, want)
	}
	if got, want := EscapeProperty("100% a:b,c\r\nd"), "100%25 a%3Ab%2Cc%0D%0Ad"; got != want {
		t.Errorf("EscapeProperty = %q, want %q", got, want)
	}
	if got := EscapeData("%0A"); got != "%250A" {
		t.Errorf("an escape in the input must not survive: %q", got)
	}
}

func TestGitHub(t *testing.T) {
	mk := func(sev diag.Severity, path, msg string) diag.Diagnostic {
		return diag.Diagnostic{Path: path, Start: diag.Pos{Line: 3, Col: 5}, End: diag.Pos{Line: 4, Col: 2},
			Code: "GL101", Rule: "undeclared-workers", Severity: sev, Message: msg}
	}
	var b bytes.Buffer
	err := Write(&b, "github", []diag.Diagnostic{
		mk(diag.Error, "a,b:c.py", "50% done\nnext: line"),
		mk(diag.Warning, "w.yaml", "w"),
		mk(diag.Info, "i.py", "i"),
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "::error file=a%2Cb%3Ac.py,line=3,col=5,endLine=4,endColumn=2,title=GL101 undeclared-workers::50%25 done%0Anext: line\n" +
		"::warning file=w.yaml,line=3,col=5,endLine=4,endColumn=2,title=GL101 undeclared-workers::w\n" +
		"::notice file=i.py,line=3,col=5,endLine=4,endColumn=2,title=GL101 undeclared-workers::i\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
