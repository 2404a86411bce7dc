package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gymlint/gymlint/lint"
)

func TestRulesCommand(t *testing.T) {
	out, errOut, code := run(t, "rules")
	if code != ExitClean || errOut != "" {
		t.Fatalf("rules: code %d stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(lint.Rules())+1 || !strings.HasPrefix(lines[0], "CODE") {
		t.Errorf("rules: %d lines for %d rules:\n%s", len(lines), len(lint.Rules()), out)
	}
	for i, r := range lint.Rules() {
		f := strings.Fields(lines[i+1])
		if len(f) < 5 || f[0] != r.Code || f[1] != r.Name || f[2] != r.Analyzer || f[3] != string(r.Severity) {
			t.Errorf("rules line %q does not describe %s", lines[i+1], r.Code)
		}
	}

	out, _, code = run(t, "rules", "--format", "json")
	var got []JSONRule
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != ExitClean {
		t.Fatalf("rules --format json: code %d err %v\n%s", code, err, out)
	}
	if len(got) != len(lint.Rules()) || got[0].Code == "" || got[0].URL == "" || got[0].Summary == "" {
		t.Errorf("rules json: %+v", got)
	}
	for _, args := range [][]string{{"rules", "--format", "xml"}, {"rules", "extra"}, {"rules", "--bogus"}} {
		if _, _, code := run(t, args...); code != ExitError {
			t.Errorf("%v: code %d, want %d", args, code, ExitError)
		}
	}
}

func TestExplainCommand(t *testing.T) {
	r := lint.Rules()[0]
	for _, key := range []string{r.Code, r.Name, strings.ToLower(r.Code)} {
		out, errOut, code := run(t, "explain", key)
		if code != ExitClean || errOut != "" {
			t.Errorf("explain %s: code %d stderr %q", key, code, errOut)
		}
		if !strings.HasPrefix(out, "# "+r.Code+" "+r.Name+"\n") || !strings.Contains(out, r.URL()) ||
			!strings.Contains(out, strings.TrimSpace(r.Doc)) {
			t.Errorf("explain %s:\n%s", key, out)
		}
	}
	if out, errOut, code := run(t, "explain", "GL000"); code != ExitError || out != "" || !strings.Contains(errOut, "GL000") {
		t.Errorf("unknown rule: code %d out %q err %q", code, out, errOut)
	}
	for _, args := range [][]string{{"explain"}, {"explain", "GL101", "GL102"}} {
		if _, _, code := run(t, args...); code != ExitError {
			t.Errorf("%v: code %d, want %d", args, code, ExitError)
		}
	}
}

func TestSARIFOnFixture(t *testing.T) {
	out, _, code := run(t, "--format", "sarif", "../testdata/gymrepo")
	if code != ExitFindings {
		t.Fatalf("code %d", code)
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run0 := log.Runs[0]
	if len(run0.Tool.Driver.Rules) != len(lint.Rules()) || len(run0.Results) == 0 {
		t.Errorf("%d rules, %d results", len(run0.Tool.Driver.Rules), len(run0.Results))
	}
	for _, r := range run0.Results {
		if run0.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("ruleIndex %d does not name %s", r.RuleIndex, r.RuleID)
		}
	}
}
