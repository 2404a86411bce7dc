package output

import (
	"fmt"
	"io"
	"strings"

	"github.com/gymlint/gymlint/diag"
)

// GitHub writes one GitHub Actions workflow command per diagnostic:
//
//	::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=CODE rule::message
//
// `::warning` for warnings and `::notice` for info. Columns are gymlint's
// byte columns. Paths are relative to the scanned root, which is the
// repository root when gymlint runs there.
func GitHub(w io.Writer, ds []diag.Diagnostic) error {
	var b strings.Builder
	for _, d := range ds {
		props := []string{"file=" + EscapeProperty(d.Path)}
		if d.Start.Line >= 1 {
			props = append(props, fmt.Sprintf("line=%d", d.Start.Line))
			if d.Start.Col >= 1 {
				props = append(props, fmt.Sprintf("col=%d", d.Start.Col))
			}
			if d.End.Line >= d.Start.Line {
				props = append(props, fmt.Sprintf("endLine=%d", d.End.Line))
				if d.End.Col >= 1 {
					props = append(props, fmt.Sprintf("endColumn=%d", d.End.Col))
				}
			}
		}
		title := d.Code
		if d.Rule != "" {
			title += " " + d.Rule
		}
		props = append(props, "title="+EscapeProperty(title))
		fmt.Fprintf(&b, "::%s %s::%s\n", githubCommand(d.Severity), strings.Join(props, ","), EscapeData(d.WithHelp()))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func githubCommand(s diag.Severity) string {
	switch s {
	case diag.Error:
		return "error"
	case diag.Warning:
		return "warning"
	}
	return "notice"
}

// EscapeData escapes a workflow command's message: % CR LF.
func EscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeProperty escapes a workflow command's property value: % CR LF : ,.
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
