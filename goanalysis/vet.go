package goanalysis

import (
	"os"
	"strings"
)

// VetInvocation reports whether args (the command line without the program
// name) is the go command running gymlint as a vet tool, `go vet
// -vettool=$(which gymlint)`. The go command's protocol (see
// golang.org/x/tools/go/analysis/unitchecker) has three calls:
//
//	gymlint -V=full                 describe the executable, for the build cache
//	gymlint -flags                  describe the flags, as JSON
//	gymlint [vet flags] DIR/vet.cfg analyze one package
//
// The last one is recognized by its last argument: a name ending in ".cfg"
// that is a regular file (gymlint's own check takes a directory, so no
// gymlint command line has a regular file there). "gymlint servers ..." is
// never a vet call.
func VetInvocation(args []string) bool {
	if len(args) == 0 || args[0] == "servers" {
		return false
	}
	if len(args) == 1 {
		switch args[0] {
		case "-V=full", "--V=full", "-flags", "--flags":
			return true
		}
	}
	last := args[len(args)-1]
	if !strings.HasSuffix(last, ".cfg") || strings.HasPrefix(last, "-") {
		return false
	}
	st, err := os.Stat(last)
	return err == nil && st.Mode().IsRegular()
}
