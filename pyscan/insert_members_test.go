package pyscan

import "testing"

func TestAddToFromImport(t *testing.T) {
	for _, tc := range []struct {
		src, want string
		ok        bool
	}{
		{"from typing import Any, Dict, Optional\n", "from typing import Any, ClassVar, Dict, Optional\n", true},
		{"from typing import Any\n", "from typing import Any, ClassVar\n", true},
		{"from typing import TYPE_CHECKING\n", "from typing import TYPE_CHECKING, ClassVar\n", true},
		{"from typing import cast\n", "from typing import ClassVar, cast\n", true},
		{"from typing import Dict as D, Any as A\n", "", false}, // not in isort's order
		{"from typing import Dict as D\n", "from typing import ClassVar, Dict as D\n", true},
		{"from typing import (Any, Dict)\n", "from typing import (Any, ClassVar, Dict)\n", true},
		{"from typing import (\n    Any,\n    Dict,\n)\n", "from typing import (\n    Any,\n    ClassVar,\n    Dict,\n)\n", true},
		{"from typing import (\r\n\tAny,\r\n)\r\n", "from typing import (\r\n\tAny,\r\n\tClassVar,\r\n)\r\n", true},
		{"from typing import (\n    Any\n)\n", "from typing import (\n    Any,\n    ClassVar\n)\n", true},
		{"from typing import (\n    Any,)\n", "", false},
		{"from typing import (\n    Any, Dict,\n)\n", "", false},  // two names on a line
		{"from typing import (\n    Any,  # why\n)\n", "", false}, // a comment inside
		{"from typing import Any, \\\n    Dict\n", "", false},
		{"from typing import *\n", "", false},
	} {
		m := parseSrc(t, tc.src)
		if len(m.Imports) == 0 {
			t.Fatalf("%q: no import", tc.src)
		}
		off, text, ok := m.AddToFromImport(m.Imports[0], "ClassVar")
		if ok != tc.ok {
			t.Errorf("%q: ok %v, want %v", tc.src, ok, tc.ok)
			continue
		}
		if ok {
			if got := tc.src[:off] + text + tc.src[off:]; got != tc.want {
				t.Errorf("%q: got %q, want %q", tc.src, got, tc.want)
			}
		}
	}
}
