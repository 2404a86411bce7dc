package actiontest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is the part of action.yml's schema the action uses; fields
// it does not know are an error.
type actionFile struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string  `yaml:"description"`
		Required    bool    `yaml:"required"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

var (
	expression = regexp.MustCompile(`\$\{\{(.*?)\}\}`)
	inputRef   = regexp.MustCompile(`\binputs\.([A-Za-z0-9_-]+)`)
	stepOutRef = regexp.MustCompile(`\bsteps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)
	outputExpr = regexp.MustCompile(`^\$\{\{\s*steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)\s*\}\}$`)
	scriptRun  = regexp.MustCompile(`^"\$GITHUB_ACTION_PATH/([^"]+)" ([a-z]+)$`)
	inputVar   = regexp.MustCompile(`\bINPUT_[A-Z0-9_]+`)
	majorPin   = regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+@v[0-9]+$`)
)

// expressions are the expressions of a step: every ${{ }} of its fields,
// and its if:, which is an expression without them too.
func (s actionStep) expressions() []string {
	var fields []string
	fields = append(fields, s.Uses, s.Run, s.Shell)
	for _, m := range []map[string]string{s.With, s.Env} {
		for _, v := range m {
			fields = append(fields, v)
		}
	}
	var exprs []string
	for _, f := range fields {
		for _, m := range expression.FindAllStringSubmatch(f, -1) {
			exprs = append(exprs, m[1])
		}
	}
	if s.If != "" {
		exprs = append(exprs, s.If)
	}
	return exprs
}

// TestActionYAML reads action.yml and checks it against the files it names:
// every ${{ inputs.X }} is a declared input and every declared input is
// used; every output is a step output that its step sets; every step output
// used is one of an earlier step (set by the script, for a run step); the
// script the run steps call exists, is executable (in git's index too),
// has the mode they call, reads every variable they pass and is passed every
// INPUT_ variable it reads; the actions used are pinned to a major version;
// and no run: block holds an expression (the inputs reach the script
// through env:, never written into shell code).
func TestActionYAML(t *testing.T) {
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Name == "" || a.Description == "" || a.Runs.Using != "composite" || len(a.Runs.Steps) == 0 {
		t.Fatalf("action.yml: name %q, description %q, runs.using %q, %d steps: want a named composite action with steps",
			a.Name, a.Description, a.Runs.Using, len(a.Runs.Steps))
	}

	wantInputs := []string{"args", "cache", "contract", "sarif-file", "upload-sarif", "version", "working-directory"}
	var inputs []string
	for name, in := range a.Inputs {
		inputs = append(inputs, name)
		if in.Description == "" || in.Default == nil || in.Required {
			t.Errorf("input %s: want a description, a default, and required: false", name)
		}
	}
	slices.Sort(inputs)
	if !slices.Equal(inputs, wantInputs) {
		t.Errorf("inputs %v, want %v", inputs, wantInputs)
	}

	// The script's text, by path, and the modes it has.
	scripts := map[string]string{}
	scriptText := func(path string) string {
		if s, ok := scripts[path]; ok {
			return s
		}
		full := filepath.Join(root, filepath.FromSlash(path))
		st, err := os.Stat(full)
		if err != nil {
			t.Errorf("the script %s: %v", path, err)
			scripts[path] = ""
			return ""
		}
		if st.Mode()&0o111 != 0o111 {
			t.Errorf("the script %s is not executable: %v", path, st.Mode())
		}
		if _, err := exec.LookPath("git"); err == nil {
			if idx, err := exec.Command("git", "-C", root, "ls-files", "--stage", "--", path).Output(); err == nil && len(idx) > 0 && !bytes.HasPrefix(idx, []byte("100755 ")) {
				t.Errorf("git's index does not hold %s as executable: %s", path, idx)
			}
		}
		scripts[path] = readFile(t, full)
		return scripts[path]
	}
	sets := func(text, output string) bool {
		return regexp.MustCompile(`(?m)^\s*set_output ` + regexp.QuoteMeta(output) + ` `).MatchString(text)
	}

	used := map[string]bool{}
	steps := map[string]actionStep{}  // by id, those before the step being checked
	stepScript := map[string]string{} // a run step's script text, by id
	passed := map[string]bool{}       // the variables the run steps pass
	for i, s := range a.Runs.Steps {
		where := "step " + s.ID
		if s.ID == "" {
			where = "step " + strconv.Itoa(i+1)
		}
		for _, e := range s.expressions() {
			for _, m := range inputRef.FindAllStringSubmatch(e, -1) {
				used[m[1]] = true
				if _, ok := a.Inputs[m[1]]; !ok {
					t.Errorf("%s uses inputs.%s, which is not declared", where, m[1])
				}
			}
			for _, m := range stepOutRef.FindAllStringSubmatch(e, -1) {
				prev, ok := steps[m[1]]
				switch {
				case !ok:
					t.Errorf("%s uses steps.%s.outputs.%s: no earlier step has id %s", where, m[1], m[2], m[1])
				case prev.Run != "" && !sets(stepScript[m[1]], m[2]):
					t.Errorf("%s uses steps.%s.outputs.%s, which that step's script never sets", where, m[1], m[2])
				}
			}
		}
		switch {
		case s.Uses != "" && s.Run != "":
			t.Errorf("%s has both uses and run", where)
		case s.Uses != "":
			if !majorPin.MatchString(s.Uses) {
				t.Errorf("%s uses %s: want owner/repo[/path]@vN, pinned to a major version", where, s.Uses)
			}
		case s.Run != "":
			if strings.Contains(s.Run, "${{") {
				t.Errorf("%s: its run: block holds an expression (inputs and outputs go in env:): %s", where, s.Run)
			}
			if strings.Contains(s.Run, "inputs.") {
				t.Errorf("%s: its run: block names an input: %s", where, s.Run)
			}
			if s.Shell != "bash" {
				t.Errorf("%s: shell %q, want bash", where, s.Shell)
			}
			m := scriptRun.FindStringSubmatch(strings.TrimSpace(s.Run))
			if m == nil {
				t.Errorf("%s: run %q, want \"$GITHUB_ACTION_PATH/SCRIPT\" MODE", where, s.Run)
				break
			}
			text := scriptText(m[1])
			if !regexp.MustCompile(`(?m)^` + m[2] + `\) `).MatchString(text) {
				t.Errorf("%s runs %s %s: the script has no mode %s", where, m[1], m[2], m[2])
			}
			stepScript[s.ID] = text
			for name := range s.Env {
				if !regexp.MustCompile(`\$\{?` + name + `\b`).MatchString(text) {
					t.Errorf("%s passes %s, which %s never reads", where, name, m[1])
				}
				passed[name] = true
			}
		default:
			t.Errorf("%s has neither uses nor run", where)
		}
		if s.ID != "" {
			if _, dup := steps[s.ID]; dup {
				t.Errorf("two steps have id %s", s.ID)
			}
			steps[s.ID] = s
		}
	}
	for path, text := range scripts {
		for _, v := range slices.Compact(slices.Sorted(slices.Values(inputVar.FindAllString(text, -1)))) {
			if !passed[v] {
				t.Errorf("%s reads %s, which no step passes", path, v)
			}
		}
	}
	for _, name := range inputs {
		if !used[name] {
			t.Errorf("input %s is declared but no step uses it", name)
		}
	}

	wantOutputs := []string{"exit-code", "findings", "sarif-file"}
	var outputs []string
	for name, o := range a.Outputs {
		outputs = append(outputs, name)
		m := outputExpr.FindStringSubmatch(o.Value)
		if m == nil || o.Description == "" {
			t.Errorf("output %s: value %q, want a description and ${{ steps.ID.outputs.NAME }}", name, o.Value)
			continue
		}
		s, ok := steps[m[1]]
		switch {
		case !ok:
			t.Errorf("output %s refers to step %s, which does not exist", name, m[1])
		case s.Run == "":
			t.Errorf("output %s refers to step %s, which runs no script", name, m[1])
		case !sets(stepScript[m[1]], m[2]):
			t.Errorf("output %s: step %s's script never sets %s", name, m[1], m[2])
		}
	}
	slices.Sort(outputs)
	if !slices.Equal(outputs, wantOutputs) {
		t.Errorf("outputs %v, want %v", outputs, wantOutputs)
	}
}
