package gen

import (
	"bytes"
	"fmt"
	"strings"
)

// pyw builds Python source line by line with four-space indentation.
type pyw struct {
	b   bytes.Buffer
	ind int
}

// l writes one line at the current indentation. Without args the format is
// written as is, so that literal % signs need no escaping.
func (w *pyw) l(format string, args ...any) {
	for i := 0; i < w.ind; i++ {
		w.b.WriteString("    ")
	}
	if len(args) == 0 {
		w.b.WriteString(format)
	} else {
		fmt.Fprintf(&w.b, format, args...)
	}
	w.b.WriteByte('\n')
}

// line writes text as one line at the current indentation.
func (w *pyw) line(text string) { w.l("%s", text) }

func (w *pyw) blank()          { w.b.WriteByte('\n') }
func (w *pyw) in()             { w.ind++ }
func (w *pyw) out()            { w.ind-- }
func (w *pyw) size() int       { return w.b.Len() }
func (w *pyw) String() string  { return w.b.String() }
func (w *pyw) raw(text string) { w.b.WriteString(text) }

// camel turns snake_case into CamelCase.
func camel(s string) string {
	var b strings.Builder
	for _, part := range strings.Split(s, "_") {
		if part == "" {
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]))
		b.WriteString(part[1:])
	}
	return b.String()
}

// licenseHeader is the comment block that opens every generated Python file.
func licenseHeader(w *pyw, year int) {
	w.l("# SPDX-FileCopyrightText: Copyright (c) %d Synthetic Gym Authors. All rights reserved.", year)
	w.l("# SPDX-License-Identifier: Apache-2.0")
	w.l("#")
	w.l("# Licensed under the Apache License, Version 2.0 (the \"License\");")
	w.l("# you may not use this file except in compliance with the License.")
	w.l("# You may obtain a copy of the License at")
	w.l("#")
	w.l("# http://www.apache.org/licenses/LICENSE-2.0")
	w.l("#")
	w.l("# Unless required by applicable law or agreed to in writing, software")
	w.l("# distributed under the License is distributed on an \"AS IS\" BASIS,")
	w.l("# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.")
	w.l("# See the License for the specific language governing permissions and")
	w.l("# limitations under the License.")
}
