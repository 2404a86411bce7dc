package pyscan

import (
	"strings"
	"testing"
)

// sectionOf is a Sectioner for the tests: nemo_gym and resources_servers
// are the repository's own.
func sectionOf(module string, level int) ImportSection {
	top, _, _ := strings.Cut(module, ".")
	switch {
	case level > 0:
		return SectionLocal
	case top == "__future__":
		return SectionFuture
	case IsStdlib(top):
		return SectionStdlib
	case top == "nemo_gym" || top == "resources_servers":
		return SectionFirstParty
	}
	return SectionThirdParty
}

func TestAddFromImport(t *testing.T) {
	// Each src marks with ^ the offset passed as before; want is the file
	// with the import added ("" when there is no place).
	for _, tc := range []struct {
		name, module, src, want string
	}{
		{"merged into the module's from-import", "typing",
			"from typing import Any\n\nfrom nemo_gym.base import B\n\n^class A(B): pass\n",
			"from typing import Any, ClassVar\n\nfrom nemo_gym.base import B\n\nclass A(B): pass\n"},
		{"stdlib section, sorted by module", "typing",
			"import json\nfrom abc import ABC\nfrom uuid import uuid4\n\nfrom nemo_gym.base import B\n\n^class A(B): pass\n",
			"import json\nfrom abc import ABC\nfrom typing import ClassVar\nfrom uuid import uuid4\n\nfrom nemo_gym.base import B\n\nclass A(B): pass\n"},
		{"stdlib section, last", "typing",
			"import os\nfrom abc import ABC\n\nimport ray\n\n^class A: pass\n",
			"import os\nfrom abc import ABC\nfrom typing import ClassVar\n\nimport ray\n\nclass A: pass\n"},
		{"stdlib section not sorted: after its last statement", "typing",
			"from uuid import uuid4\nimport os\n\nimport ray\n\n^class A: pass\n",
			"from uuid import uuid4\nimport os\nfrom typing import ClassVar\n\nimport ray\n\nclass A: pass\n"},
		{"a section of its own before the first party", "typing",
			"from nemo_gym.base import B\nfrom resources_servers.x import y\n\n^class A(B): pass\n",
			"from typing import ClassVar\n\nfrom nemo_gym.base import B\nfrom resources_servers.x import y\n\nclass A(B): pass\n"},
		{"a section of its own keeps the comment above the next", "typing",
			"\"\"\"Doc.\"\"\"\n# first party\nfrom nemo_gym.base import B\n\n^class A(B): pass\n",
			"\"\"\"Doc.\"\"\"\nfrom typing import ClassVar\n\n# first party\nfrom nemo_gym.base import B\n\nclass A(B): pass\n"},
		{"first party after the third party", "nemo_gym.server_utils",
			"import os\n\nimport ray\n\n^class A: pass\n",
			"import os\n\nimport ray\n\nfrom nemo_gym.server_utils import ClassVar\n\nclass A: pass\n"},
		{"first party among the first party", "nemo_gym.server_utils",
			"from nemo_gym.base import B\nfrom nemo_gym.x import y\n\n^class A: pass\n",
			"from nemo_gym.base import B\nfrom nemo_gym.server_utils import ClassVar\nfrom nemo_gym.x import y\n\nclass A: pass\n"},
		{"no import: after the docstring, a blank line before the code", "typing",
			"\"\"\"Doc.\"\"\"\n^class A: pass\n",
			"\"\"\"Doc.\"\"\"\nfrom typing import ClassVar\n\nclass A: pass\n"},
		{"CRLF", "typing",
			"import os\r\n\r\nimport ray\r\n\r\n^class A: pass\r\n",
			"import os\r\nfrom typing import ClassVar\r\n\r\nimport ray\r\n\r\nclass A: pass\r\n"},
		{"imports under TYPE_CHECKING do not count", "typing",
			"import os\nif TYPE_CHECKING:\n    from typing import Any\n\n^class A: pass\n",
			"import os\nfrom typing import ClassVar\nif TYPE_CHECKING:\n    from typing import Any\n\nclass A: pass\n"},
		{"an import with code after it on its line", "typing",
			"import os; x = 1\n^class A: pass\n", ""},
		{"last line without a line ending", "nemo_gym.x",
			"import ray^", "import ray\n\nfrom nemo_gym.x import ClassVar\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := strings.Index(tc.src, "^")
			src := strings.Replace(tc.src, "^", "", 1)
			m := parseSrc(t, src)
			ins, ok := m.AddFromImport(tc.module, "ClassVar", sectionOf, int32(before))
			if tc.want == "" {
				if ok {
					t.Fatalf("got %+v, want none", ins)
				}
				return
			}
			if !ok {
				t.Fatalf("no place, want\n%s", tc.want)
			}
			if got := src[:ins.Offset] + ins.Text + src[ins.Offset:]; got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want byte
	}{
		{"x = 'a'\ny = 'b'\nz = \"c\"\n", '\''},
		{"x = 'a'\ny = \"b\"\n", '"'},
		{"def f():\n    '''Doc.'''\n    return {'k': r'v'}\n", '\''},
		{"x = 1\n", '"'},
	} {
		if got := parseSrc(t, tc.src).Quote(); got != tc.want {
			t.Errorf("%q: Quote() = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestAddFromImports(t *testing.T) {
	// The names are given unsorted and one twice: each is added once, in
	// isort's order.
	names := []string{"omega", "Beta", "Alpha", "Beta"}
	for _, tc := range []struct{ name, src, want string }{
		{"two names at one place and one at the end", "from nemo_gym.base import Base, Zeta\n\n^class A: pass\n",
			"from nemo_gym.base import Alpha, Base, Beta, Zeta, omega\n\nclass A: pass\n"},
		{"one new statement", "import os\n\n^class A: pass\n",
			"import os\n\nfrom nemo_gym.base import Alpha, Beta, omega\n\nclass A: pass\n"},
		{"one per line", "from nemo_gym.base import (\n    Base,\n    Zeta,\n)\n^x = 1\n",
			"from nemo_gym.base import (\n    Alpha,\n    Base,\n    Beta,\n    Zeta,\n    omega,\n)\nx = 1\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := strings.Index(tc.src, "^")
			src := strings.Replace(tc.src, "^", "", 1)
			m := parseSrc(t, src)
			ins, ok := m.AddFromImports("nemo_gym.base", names, sectionOf, int32(before))
			if !ok {
				t.Fatal("no place")
			}
			got, last := "", 0
			for _, in := range ins {
				got += src[last:in.Offset] + in.Text
				last = int(in.Offset)
			}
			if got += src[last:]; got != tc.want {
				t.Errorf("got\n%q\nwant\n%q", got, tc.want)
			}
		})
	}
}
