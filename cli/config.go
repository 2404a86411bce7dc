package cli

import (
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/facts"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/schema"
	"github.com/gymlint/gymlint/settings/policy"
)

// effectiveConfig is what `gymlint config` prints.
type effectiveConfig struct {
	Root             string             `json:"root"`
	File             string             `json:"file"`
	Shadowed         string             `json:"shadowed,omitempty"`
	ServerTypes      []string           `json:"server_types"`
	FrameworkPackage string             `json:"framework_package"`
	MaxFileSize      int64              `json:"max_file_size"`
	Exempt           []configExemption  `json:"exempt"`
	Enabled          []string           `json:"enabled"`
	Disabled         []string           `json:"disabled"`
	Severity         map[string]string  `json:"severity"`
	PerPathIgnores   []configPathIgnore `json:"per_path_ignores"`
	// Exclude are the globs of the configuration's exclude and --exclude.
	Exclude []string `json:"exclude"`
	// RespectGitignore is false with --no-respect-gitignore.
	RespectGitignore bool `json:"respect_gitignore"`
	// ExtraRoots are the configuration's extra_roots (inside the root),
	// absent when it has none.
	ExtraRoots []string `json:"extra_roots,omitempty"`
	// Words are the identifier words the configuration adds, by kind, with
	// every word of the kind (defaults included): absent when it adds none.
	Words         map[string]configWords `json:"words,omitempty"`
	FrameworkPath string                 `json:"framework_path"`
	Contract      string                 `json:"contract"`
	Framework     configFramework        `json:"framework"`
	// NotApplied are the enabled rules the contract leaves out, and
	// NotAppliedWhy says why, rule by rule.
	NotApplied    []string           `json:"not_applied"`
	NotAppliedWhy []configNotApplied `json:"not_applied_reasons"`
}

// configNotApplied is a rule the contract leaves out: the facts of the
// contract it needs that the framework lacks, and what that means.
type configNotApplied struct {
	Code    string   `json:"code"`
	Name    string   `json:"name"`
	Missing []string `json:"missing"`
	Reason  string   `json:"reason"`
}

// configFramework is the framework found (contract.Detect).
type configFramework struct {
	Package  string   `json:"package"`
	Found    bool     `json:"found"`
	Dir      string   `json:"dir"`   // relative to the root, or absolute outside it; "" when not found
	Where    string   `json:"where"` // repository, framework_path, virtualenv; "" when not found
	Modules  int      `json:"modules_parsed"`
	Problems []string `json:"problems"`
	// Facts has every contract fact: where it was found, or null.
	Facts map[string]*string `json:"facts"`
}

// configWords are a kind of identifier words (facts.Words) the
// configuration extends.
type configWords struct {
	Added []string `json:"added"`
	All   []string `json:"all"`
}

type configExemption struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type configPathIgnore struct {
	Paths  []string `json:"paths"`
	Rules  []string `json:"rules"`
	Reason string   `json:"reason"`
}

// configFormats are the formats of gymlint config.
var configFormats = []string{"text", "json"}

const configAbout = `Prints the effective configuration of the repository that PATH (default: the
current directory) lies in: its root, the file read (.gymlint.yaml, or
[tool.gymlint] in pyproject.toml), the defaults it leaves, and the rules
resolved to codes. The selection flags change it as they change the check.
`

// configCmd is `gymlint config`: it prints the effective configuration,
// or with --schema the JSON Schema of the configuration.
func configCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	format := fs.String("format", "text", "output format: "+strings.Join(configFormats, ", "))
	var which schemaFlag
	fs.Var(&which, "schema", "print the JSON Schema of the configuration (.gymlint.yaml, and [tool.gymlint] alike) and exit; --schema=pyproject: of a whole pyproject.toml, with it under tool.gymlint")
	sel := addSelectionFlags(fs)
	return func(args []string) int {
		if which != "" {
			return printSchema(fs, string(which), args, stdout, stderr)
		}
		return config(fs, *format, sel, args, stdout, stderr)
	}
}

// schemaFlag is --schema: a flag without a value ("gymlint"), or
// --schema=pyproject.
type schemaFlag string

// schemas are what --schema prints, by its value.
var schemas = map[string][]byte{"gymlint": schema.Config, "pyproject": schema.PyProject}

func (f *schemaFlag) String() string   { return string(*f) }
func (f *schemaFlag) IsBoolFlag() bool { return true }

func (f *schemaFlag) Set(v string) error {
	switch v {
	case "true":
		v = "gymlint"
	case "false":
		v = ""
	}
	if _, ok := schemas[v]; !ok && v != "" {
		return fmt.Errorf("--schema takes no value, or =pyproject, not %q", v)
	}
	*f = schemaFlag(v)
	return nil
}

// printSchema prints the JSON Schema that --schema names; it reads no
// repository, so it takes no PATH.
func printSchema(fs *flag.FlagSet, which string, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		return usageError(stderr, fs, "--schema prints the configuration's schema and takes no PATH, got %s", strings.Join(args, " "))
	}
	if _, err := stdout.Write(schemas[which]); err != nil {
		fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
		return ExitError
	}
	return ExitClean
}

// config prints the effective configuration of the repository that the
// one optional PATH of args lies in.
func config(fs *flag.FlagSet, format string, sel *selectionFlags, args []string, stdout, stderr io.Writer) int {
	root, ok := oneDir(fs, args, stderr)
	if !ok {
		return ExitError
	}
	if !slices.Contains(configFormats, format) {
		return usageError(stderr, fs, "unknown --format %q (known: %s)", format, strings.Join(configFormats, ", "))
	}
	t, e, ok := openEngineWith(fs, root, sel, stderr)
	if !ok {
		return ExitError
	}
	opts, conf := e.GymOptions(), e.Settings()
	ec := effectiveConfig{
		Root: t.root, File: conf.File, Shadowed: conf.Shadowed,
		ServerTypes: opts.ServerTypes, FrameworkPackage: opts.FrameworkPackage, MaxFileSize: opts.MaxFileSize,
		Exempt: []configExemption{}, Enabled: policy.EnabledCodes(conf), Disabled: []string{},
		Severity: map[string]string{}, PerPathIgnores: []configPathIgnore{},
		Exclude: append([]string{}, conf.Exclude...), RespectGitignore: opts.Gitignore,
		ExtraRoots: conf.ExtraRoots,
	}
	if len(conf.Words) > 0 {
		if w, err := facts.NewWords(conf.Words); err == nil {
			ec.Words = map[string]configWords{}
			for kind, added := range conf.Words {
				ec.Words[kind] = configWords{Added: added, All: w.List(kind)}
			}
		}
	}
	if len(ec.ServerTypes) == 0 {
		ec.ServerTypes = configscan.DefaultServerTypes
	}
	if ec.FrameworkPackage == "" {
		ec.FrameworkPackage = contract.DefaultPackage
	}
	if ec.MaxFileSize == 0 {
		ec.MaxFileSize = repofs.DefaultMaxFileSize
	}
	for _, x := range conf.Exempt {
		ec.Exempt = append(ec.Exempt, configExemption{Path: x.Path, Reason: x.Reason})
	}
	for _, r := range lint.Rules() {
		if !policy.Enabled(conf, r.Code) {
			ec.Disabled = append(ec.Disabled, r.Code)
		}
	}
	for c, s := range conf.Severity {
		ec.Severity[c] = string(s)
	}
	for _, pi := range conf.PerPathIgnores {
		ec.PerPathIgnores = append(ec.PerPathIgnores, configPathIgnore{Paths: pi.Paths, Rules: pi.Rules, Reason: pi.Reason})
	}
	fw, mode := e.Framework()
	ec.FrameworkPath, ec.Contract = conf.FrameworkPath, string(mode)
	ec.Framework = configFramework{Package: fw.Package, Found: fw.Found, Dir: fw.Dir, Where: string(fw.Where), Modules: fw.Modules,
		Problems: append([]string{}, fw.Problems...), Facts: map[string]*string{}}
	for _, in := range contract.Facts {
		if at, ok := fw.Facts[in.Fact]; ok {
			ec.Framework.Facts[in.Fact] = &at
		} else {
			ec.Framework.Facts[in.Fact] = nil
		}
	}
	ec.NotApplied, ec.NotAppliedWhy = []string{}, []configNotApplied{}
	for _, sk := range e.Skipped() {
		ec.NotApplied = append(ec.NotApplied, sk.Code)
		na := configNotApplied{Code: sk.Code, Missing: sk.Missing, Reason: contract.Reason(sk.Missing...)}
		if r := lint.Lookup(sk.Code); r != nil {
			na.Name = r.Name
		}
		ec.NotAppliedWhy = append(ec.NotAppliedWhy, na)
	}
	var err error
	if format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(ec)
	} else {
		err = writeConfigText(stdout, ec)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
		return ExitError
	}
	return ExitClean
}

func writeConfigText(w io.Writer, ec effectiveConfig) error {
	var b strings.Builder
	file := ec.File
	if file == "" {
		file = "(none: defaults)"
	}
	fmt.Fprintf(&b, "root: %s\n", ec.Root)
	fmt.Fprintf(&b, "file: %s\n", file)
	if ec.Shadowed != "" {
		fmt.Fprintf(&b, "  (%s also has [tool.gymlint]; %s takes precedence and it was not read)\n", ec.Shadowed, ec.File)
	}
	fmt.Fprintf(&b, "server_types: %s\n", strings.Join(ec.ServerTypes, ", "))
	fmt.Fprintf(&b, "framework_package: %s\n", ec.FrameworkPackage)
	fmt.Fprintf(&b, "framework_path: %s\n", cmp.Or(ec.FrameworkPath, "(none)"))
	fmt.Fprintf(&b, "contract: %s\n", ec.Contract)
	fw := ec.Framework
	if fw.Found {
		fmt.Fprintf(&b, "framework: %s at %s (%s; %d modules parsed)\n", fw.Package, fw.Dir, fw.Where, fw.Modules)
		for _, in := range contract.Facts {
			if at := fw.Facts[in.Fact]; at != nil {
				fmt.Fprintf(&b, "  %-26s yes  %s: %s\n", in.Fact, *at, in.Has)
			} else {
				fmt.Fprintf(&b, "  %-26s no   %s\n", in.Fact, in.Lacks)
			}
		}
		for _, p := range fw.Problems {
			fmt.Fprintf(&b, "  not read: %s\n", p)
		}
	} else {
		fmt.Fprintf(&b, "framework: no %s package found (the repository, framework_path, .venv, venv, $VIRTUAL_ENV): the latest contract\n", fw.Package)
	}
	fmt.Fprintf(&b, "not applied under the contract (%d)", len(ec.NotAppliedWhy))
	if len(ec.NotAppliedWhy) > 0 {
		b.WriteString(": the framework predates what each needs; --contract latest applies them")
	}
	b.WriteString("\n")
	for _, na := range ec.NotAppliedWhy {
		fmt.Fprintf(&b, "  %s %-36s %s\n", na.Code, na.Name, na.Reason)
	}
	fmt.Fprintf(&b, "max_file_size: %d\n", ec.MaxFileSize)
	fmt.Fprintf(&b, "exempt: %d\n", len(ec.Exempt))
	for _, x := range ec.Exempt {
		fmt.Fprintf(&b, "  %s: %s\n", x.Path, x.Reason)
	}
	fmt.Fprintf(&b, "enabled (%d): %s\n", len(ec.Enabled), strings.Join(ec.Enabled, " "))
	fmt.Fprintf(&b, "disabled (%d): %s\n", len(ec.Disabled), strings.Join(ec.Disabled, " "))
	fmt.Fprintf(&b, "severity overrides: %d\n", len(ec.Severity))
	for _, r := range lint.Rules() {
		if s, ok := ec.Severity[r.Code]; ok {
			fmt.Fprintf(&b, "  %s %s: %s (default %s)\n", r.Code, r.Name, s, r.Severity)
		}
	}
	fmt.Fprintf(&b, "per_path_ignores: %d\n", len(ec.PerPathIgnores))
	for _, pi := range ec.PerPathIgnores {
		fmt.Fprintf(&b, "  %s: %s (%s)\n", strings.Join(pi.Paths, ", "), strings.Join(pi.Rules, " "), pi.Reason)
	}
	fmt.Fprintf(&b, "exclude: %d\n", len(ec.Exclude))
	for _, g := range ec.Exclude {
		fmt.Fprintf(&b, "  %s\n", g)
	}
	fmt.Fprintf(&b, "respect_gitignore: %v\n", ec.RespectGitignore)
	if len(ec.ExtraRoots) > 0 {
		fmt.Fprintf(&b, "extra_roots: %s\n", strings.Join(ec.ExtraRoots, " "))
	}
	if len(ec.Words) > 0 {
		fmt.Fprintf(&b, "words: %d kinds extended\n", len(ec.Words))
		kinds := slices.Sorted(maps.Keys(ec.Words))
		for _, k := range kinds {
			fmt.Fprintf(&b, "  %s: +%s (all: %s)\n", k, strings.Join(ec.Words[k].Added, " +"), strings.Join(ec.Words[k].All, " "))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
