//go:build ignore

package rayenabled

import "github.com/gymlint/gymlint/diag"
