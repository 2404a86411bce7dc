//go:build ignore

package workers

import (
	"strconv"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/gym"
)

// mwWant is one expected finding of the GL102/GL103/GL105 tests:
// "path:line:col", message fragments, and related places as "path:line".
type mwWant struct {
	at       string
	contains []string
	related  []string
}

type mwCase struct {
	name  string
	files map[string]string
	want  []mwWant
}

// mwScan builds a view of an overlay repository and runs one rule on it.
func mwScan(t *testing.T, files map[string]string, run func(*gym.View) []diag.Diagnostic) []diag.Diagnostic {
	t.Helper()
	overlay := map[string][]byte{}
	for p, c := range files {
		overlay[p] = []byte(c)
	}
	v, err := gym.Build(t.TempDir(), gym.Options{Overlay: overlay})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	ds := run(v)
	diag.Sort(ds)
	return ds
}

func mwCheck(t *testing.T, cases []mwCase, rule *diag.Rule, run func(*gym.View) []diag.Diagnostic) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ds := mwScan(t, tc.files, run)
			if len(ds) != len(tc.want) {
				for _, d := range ds {
					t.Logf("got %s:%d:%d: %s %s", d.Path, d.Start.Line, d.Start.Col, d.Code, d.Message)
				}
				t.Fatalf("got %d findings, want %d", len(ds), len(tc.want))
			}
			for i, w := range tc.want {
				d := ds[i]
				at := d.Path + ":" + strconv.Itoa(d.Start.Line) + ":" + strconv.Itoa(d.Start.Col)
				if at != w.at {
					t.Errorf("finding %d at %s, want %s (%s)", i, at, w.at, d.Message)
				}
				if d.Code != rule.Code || d.Rule != rule.Name || d.Severity != rule.Severity || d.Analyzer != "workers" {
					t.Errorf("finding %d has rule %s %s %s %s", i, d.Code, d.Rule, d.Severity, d.Analyzer)
				}
				for _, c := range w.contains {
					if !strings.Contains(d.Message, c) {
						t.Errorf("finding %d message lacks %q:\n%s", i, c, d.Message)
					}
				}
				if w.related != nil {
					var got []string
					for _, r := range d.Related {
						got = append(got, r.Path+":"+strconv.Itoa(r.Start.Line))
					}
					if strings.Join(got, " ") != strings.Join(w.related, " ") {
						t.Errorf("finding %d related %v, want %v", i, got, w.related)
					}
				}
				if d.End.Offset < d.Start.Offset || d.End.Line < d.Start.Line {
					t.Errorf("finding %d ends before it starts: %+v %+v", i, d.Start, d.End)
				}
			}
		})
	}
}

// lateHead is the top of every GL102 test module: imports at lines 1-4,
// a blank line, the class at line 6.
const lateHead = `from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers
from nemo_gym import server_utils
from nemo_gym.server_utils import refuse_unsupported_num_workers as refuse_workers

class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "deliverables are claimed in memory by the task id in the request body"

`

const lateApp = "resources_servers/report/app.py"

func TestLateWorkerRefusal(t *testing.T) {
	cases := []mwCase{
		{
			name: "setup before the refusal is reported at the setup call",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        ensure_office_suite()
        refuse_unsupported_num_workers(self)
`},
			want: []mwWant{{at: lateApp + ":11:9", contains: []string{
				"ReportServer.model_post_init calls ensure_office_suite() before refuse_unsupported_num_workers(self) at line 12",
				"call refuse_unsupported_num_workers(self) first in model_post_init",
			}, related: []string{lateApp + ":12", lateApp + ":7"}}},
		},
		{
			name: "never refusing, with work, is reported at the method name",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        super().model_post_init(context)
        self._rows = load_rows(self.config.path)
`},
			want: []mwWant{{at: lateApp + ":10:9", contains: []string{
				"ReportServer.model_post_init never calls refuse_unsupported_num_workers(self)",
				"it calls load_rows() at line 12",
			}, related: []string{lateApp + ":12", lateApp + ":7"}}},
		},
		{
			name: "refusal through a module, after work",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        self.snapshot = take_metrics_snapshot()
        server_utils.refuse_unsupported_num_workers(self)
`},
			want: []mwWant{{at: lateApp + ":11:25", contains: []string{"calls take_metrics_snapshot() before"}}},
		},
		{
			name: "a refusal of something else is work",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        refuse_unsupported_num_workers(self.helper)
        refuse_unsupported_num_workers(self)
`},
			want: []mwWant{{at: lateApp + ":11:9", contains: []string{"calls refuse_unsupported_num_workers() before"}}},
		},
		{
			name: "a method call is work too",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        self._ensure_nltk()
        refuse_unsupported_num_workers(self)
`},
			want: []mwWant{{at: lateApp + ":11:9", contains: []string{"calls self._ensure_nltk() before"}}},
		},
		{
			name: "work in a repository parent's model_post_init, reached through super(), is reported at the super call",
			files: map[string]string{
				"resources_servers/report/base.py": `from nemo_gym.base_resources_server import SimpleResourcesServer


class OfficeServer(SimpleResourcesServer):
    def model_post_init(self, context):
        ensure_office_suite()
`,
				lateApp: `from nemo_gym.server_utils import refuse_unsupported_num_workers
from resources_servers.report.base import OfficeServer


class ReportServer(OfficeServer):
    def multiple_workers_unsupported_reason(self):
        return "one process owns the office suite"

    def model_post_init(self, context):
        super().model_post_init(context)
        refuse_unsupported_num_workers(self)
`},
			want: []mwWant{{at: lateApp + ":10:9", contains: []string{
				"calls super().model_post_init(), which runs ensure_office_suite() in OfficeServer.model_post_init first, before refuse_unsupported_num_workers(self) at line 11",
			}, related: []string{"resources_servers/report/base.py:6", lateApp + ":11", lateApp + ":6"}}},
		},
		{
			name: "a parent shared by two entrypoints is reported once, where the code is",
			files: map[string]string{
				"resources_servers/report/base.py": `from nemo_gym.base_resources_server import SimpleResourcesServer


class OfficeServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "one process owns the office suite"

    def model_post_init(self, context):
        ensure_office_suite()
`,
				"resources_servers/report/app.py": "from resources_servers.report.base import OfficeServer\n\n\nclass ReportServer(OfficeServer):\n    pass\n",
				"resources_servers/sheet/app.py":  "from resources_servers.report.base import OfficeServer\n\n\nclass SheetServer(OfficeServer):\n    pass\n",
			},
			want: []mwWant{{at: "resources_servers/report/base.py:8:9", contains: []string{"OfficeServer.model_post_init never calls"}}},
		},
		// Look-alikes that must not be reported.
		{
			name: "refusal first",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        refuse_unsupported_num_workers(self)
        ensure_office_suite()
`},
		},
		{
			name: "super().model_post_init of the framework, then the refusal",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        super().model_post_init(context)
        refuse_unsupported_num_workers(self)
        ensure_office_suite()
`},
		},
		{
			name: "logging, builtins and literal stores before the refusal",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        logger.info("starting %s", self.config.name)
        self._count = 0
        self.logger.debug("x")
        self.urls = [f"http://127.0.0.1:{8100 + r}/v1" for r in range(self.config.n)]
        if isinstance(self.config.path, str) and len(self.config.path) > 0:
            print("path", str(self.config.path))
        refuse_workers(self)
        ensure_office_suite()
`},
		},
		{
			name: "raising an exception is not work",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        if not self.config.path:
            raise ValueError("path is required")
        refuse_unsupported_num_workers(self)
        ensure_office_suite()
`},
		},
		{
			name: "refusal under an imported alias, by keyword",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        refuse_workers(server=self)
        ensure_office_suite()
`},
		},
		{
			name: "no refusal override: GL102 is silent",
			files: map[string]string{lateApp: `from nemo_gym.base_resources_server import SimpleResourcesServer


class ReportServer(SimpleResourcesServer):
    def model_post_init(self, context):
        ensure_office_suite()
`},
		},
		{
			name: "an override that only returns None cannot refuse",
			files: map[string]string{lateApp: `from nemo_gym.base_resources_server import SimpleResourcesServer


class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        """Safe with several workers."""
        return None

    def model_post_init(self, context):
        ensure_office_suite()
`},
		},
		{
			name: "an override that delegates to the framework's default cannot refuse",
			files: map[string]string{lateApp: `from nemo_gym.base_resources_server import SimpleResourcesServer


class ReportServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return super().multiple_workers_unsupported_reason()

    def model_post_init(self, context):
        ensure_office_suite()
`},
		},
		{
			name: "a model_post_init without work need not refuse",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context):
        super().model_post_init(context)
        self._ready = True
`},
		},
		{
			name: "a parent that refuses first makes the child's super call the refusal",
			files: map[string]string{
				"resources_servers/report/base.py": `from nemo_gym.base_resources_server import SimpleResourcesServer
from nemo_gym.server_utils import refuse_unsupported_num_workers


class OfficeServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self):
        return "one process owns the office suite"

    def model_post_init(self, context):
        refuse_unsupported_num_workers(self)
        ensure_office_suite()
`,
				lateApp: `from resources_servers.report.base import OfficeServer


class ReportServer(OfficeServer):
    def model_post_init(self, context):
        super().model_post_init(context)
        load_templates()
`},
		},
		{
			name: "a model_post_init shadowed by the framework's is not the one that runs",
			files: map[string]string{lateApp: lateHead + `

class SetupMixin:
    def model_post_init(self, context):
        ensure_office_suite()


class OtherServer(SimpleResourcesServer, SetupMixin):
    def multiple_workers_unsupported_reason(self):
        return "x"
`},
		},
		{
			name: "a syntax error skips the module",
			files: map[string]string{lateApp: lateHead + `    def model_post_init(self, context:
        ensure_office_suite()
`},
		},
	}
	mwCheck(t, cases, LateWorkerRefusal, runLateRefusal)
}

func TestLateWorkerRefusalCatalogue(t *testing.T) {
	found := false
	for _, c := range Checks {
		if c.Rule == LateWorkerRefusal {
			found = true
		}
	}
	if !found {
		t.Fatal("GL102 is not registered in Checks")
	}
	for _, h := range []string{"## What it does", "## Why it matters", "## Example", "## How to fix"} {
		if !strings.Contains(LateWorkerRefusal.Doc, h) {
			t.Errorf("GL102 doc lacks %q", h)
		}
	}
}
