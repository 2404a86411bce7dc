package goanalysis

import "golang.org/x/tools/go/packages"

// analysed reports whether the analyzers run on a loaded package: not when
// it, or a package it imports, has errors (a GL008 says so), since the
// checker skips an ill-typed package for every analyzer that does not run
// despite errors, and none of gymlint's does. The files of a package that
// is not analysed are left out of Result.Files, the files whose
// suppressions a scan checks: a suppression there is not unused, its
// finding is only not looked for until the package loads (see package
// suppress).
func analysed(p *packages.Package) bool {
	return !p.IllTyped && len(p.Errors) == 0
}
