package diag

import (
	"io/fs"
	"strings"
)

// ReadDoc returns the documentation of the rule with this code from
// docs/CODE.md in fsys (a package's embedded rule docs), without the
// file's final newline. A rule without its file is a build mistake, so
// ReadDoc panics when the package is initialised rather than let a rule go
// undocumented.
func ReadDoc(fsys fs.FS, code string) string {
	b, err := fs.ReadFile(fsys, "docs/"+code+".md")
	if err != nil {
		panic("gymlint: rule " + code + " has no documentation: " + err.Error())
	}
	return strings.TrimSuffix(string(b), "\n")
}
