// Package cli is gymlint's command line: flags, configuration loading,
// exit codes. It wires the scan (package lint) to the printers (package
// output) and decides nothing about findings itself.
package cli

import (
	"flag"
	"fmt"
	"github.com/gymlint/gymlint/internal/clip"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/fixes"
	"github.com/gymlint/gymlint/gym"
	"github.com/gymlint/gymlint/output"
	"github.com/gymlint/gymlint/pyscan"
	"github.com/gymlint/gymlint/settings"
)

// Exit codes. They are a stable interface.
const (
	ExitClean    = 0 // no findings
	ExitFindings = 1 // at least one finding
	ExitError    = 2 // usage, configuration or internal error
)

// Version is set at build time with -ldflags "-X .../cli.Version=v1.2.3";
// otherwise it comes from the module's build information.
var Version = ""

func version() string {
	if Version != "" {
		return Version
	}
	bi, _ := debug.ReadBuildInfo()
	return buildVersion(bi)
}

// buildVersion is the version that build information bi (nil: none) names:
// the main module's version when the go command knew it (go install
// module@v1.2.3, or a pseudo-version, which a build in a git checkout gets
// since Go 1.24: v0.0.0-20261201233705-662883d9727e, "+dirty" when the
// work tree had changes), else the first 12 digits of the VCS revision, with
// "-dirty" when the work tree had changes, else "devel" (a build with
// -buildvcs=false, or outside a checkout).
func buildVersion(bi *debug.BuildInfo) string {
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if modified {
		rev += "-dirty"
	}
	return rev
}

// checkAbout is the check's usage text, after the synopsis: it names the
// subcommands, each a word that a directory of that name is not taken for.
func checkAbout() string {
	names := subcommandNames()
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	dirs := strings.Join(quoted[:len(quoted)-1], ", ") + " or " + quoted[len(quoted)-1]
	return `Checks the NeMo Gym-style repository that PATH lies in (default: the current
directory) without importing or running any of it, and reports the findings
in PATH: a directory or file below the repository's root gives the findings
of the whole repository's check that are in it, or whose related positions
are. The root is the nearest directory, PATH's own first, with .gymlint.yaml,
a pyproject.toml with [tool.gymlint], or the Gym layout (resources_servers/
and the other server-type folders with servers in them, or nemo_gym/), not
above the top of a git checkout; --root DIR chooses it. "gymlint servers"
lists the servers, "gymlint rules" lists the rules and "gymlint explain GL101"
prints one rule's documentation, "gymlint config" the effective configuration,
"gymlint resolve" the config Gym composes from config files, "gymlint lsp"
runs the language server for editors on stdin and stdout, "gymlint clean"
removes the cache, "gymlint completion bash" prints a shell completion
script, and "gymlint help servers" prints the usage of a command.
` + wrap("(A directory named "+dirs+" is checked with \"gymlint ./servers\".)", 78) + `
Checks keep what they computed in a cache (--cache-dir, --no-cache): a
check of files that did not change since the last reads its findings
instead of computing them again.
With --pre-commit (the form that pre-commit calls), the arguments are FILEs
as with plain PATHs, and files that no longer exist are allowed.
Go modules (a go.mod at the root or below) are loaded with go list and checked
by the Go analyzers too; "go vet -vettool=$(which gymlint) ./..." runs those
analyzers under go vet, with the same suppressions and configuration.
`
}

// checkTrailer follows the check's flags in its usage.
const checkTrailer = "\nExit status: 0 no findings, 1 findings, 2 usage, configuration or internal error (GL011).\n" +
	"With -fix: those of the check after the fixes. With -diff: 1 if there are findings, fixable or not.\n" +
	"With -add-noqa: 0 if every finding got a suppression, 1 if some could not.\n"

// wrap breaks text into lines of at most width characters, at spaces.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(text) {
		switch {
		case i == 0:
		case n+1+len(w) > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

// Main runs gymlint with the given arguments and returns the exit status.
// `gymlint servers ...` prints the server inventory; anything else checks.
func Main(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gymlint: internal error: %v\n%s", r, debug.Stack())
			code = ExitError
		}
	}()
	if len(args) > 0 && args[0] != "" {
		if c := lookupCommand(args[0]); c != nil {
			return c.main(args[1:], stdout, stderr)
		}
	}
	return lookupCommand("").main(args, stdout, stderr)
}

// oneDir is the one optional PATH of a command's positional arguments
// ("." by default); ok is false, after a usage error, when there are more.
func oneDir(fs *flag.FlagSet, positional []string, stderr io.Writer) (root string, ok bool) {
	if len(positional) > 1 {
		usageError(stderr, fs, "expected at most one directory, got %d: %s", len(positional), strings.Join(positional, " "))
		return "", false
	}
	if len(positional) == 1 {
		return positional[0], true
	}
	return ".", true
}

// parseFlags parses flags that may come before or after the positional
// arguments (a "--" ends the flags) and returns the positional arguments.
// The error is flag.ErrHelp for -h and --help.
func parseFlags(fs *flag.FlagSet, args []string) (positional []string, err error) {
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return nil, err
		}
		rest = fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), nil
		}
		positional = append(positional, rest[0])
		rest = rest[1:]
	}
}

// checkCmd declares the check's flags and returns the check: gymlint
// [flags] [PATH...] lints the repository.
func checkCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(paths []string) int {
	var formats formatsFlag
	fs.Var(&formats, "format", "output `FORMAT`: "+strings.Join(output.Formats, ", ")+" (default text); FORMAT:FILE writes it to FILE instead of stdout; repeatable, for several formats in one run")
	outputFile := fs.String("output-file", "", "write the findings to `FILE` instead of stdout (created, or replaced whole; the summary stays on stderr)")
	var exempt multiFlag
	fs.Var(&exempt, "exempt", "exempt the entrypoint at this root-relative `PATH` from the workers rule (repeatable)")
	maxSize := fs.Int64("max-file-size", 0, "skip (and report) files larger than this many `bytes` (default 4194304)")
	jobs := fs.Int("jobs", 0, "work with this many parallel `workers`: the walk, the parses, the analysis (default: the CPUs the process may use, GOMAXPROCS)")
	parseBudget := fs.Int64("parse-budget", 0, fmt.Sprintf("let the scan's parses take this many `steps` together, files past it are reported, not analysed (default %d)", pyscan.DefaultScanSteps))
	showVersion := fs.Bool("version", false, "print the version and exit")
	quiet := fs.Bool("quiet", false, "do not print the summary line on stderr")
	verbose := fs.Bool("verbose", false, "say more on stderr: each group of rules the contract leaves out, with why, and each PATH checked")
	exitZero := fs.Bool("exit-zero", false, "exit 0 even when there are findings (errors, GL011 included, still exit 2)")
	statistics := fs.Bool("statistics", false, "print how many findings each rule has, instead of the findings")
	rootFlag := fs.String("root", "", "the repository root `DIR` (default: found from the first PATH, see above)")
	contractFlag := fs.String("contract", "", "judge the code by the `MODE` contract: auto (what the repository's framework has) or latest (every rule); default: the configuration's, else auto")
	var extraRootFlags multiFlag
	fs.Var(&extraRootFlags, "extra-root", "search this plugin server root `DIR` before the root for the server directories configs name, as NEMO_GYM_EXTRA_ROOTS (repeatable; searched before that variable's roots)")
	includeExtra := fs.Bool("include-extra-roots", false, "report the findings in the files of extra roots outside the root too (shown as <name>/PATH)")
	goNetwork := fs.Bool("go-network", false, "let the go command download Go dependencies missing from the module cache (default: offline, a missing one is GL008)")
	var maxMemory memoryFlag
	fs.Var(&maxMemory, "max-memory", "stop with exit status 2, and a message, when gymlint uses more than this many `MB` (default: 90% of the memory the process may use; 0: no bound)")
	// Suggested fixes (package fixes).
	fix := fs.Bool("fix", false, "apply the suggested fixes to the files, then check again and print what remains")
	showDiff := fs.Bool("diff", false, "print the suggested fixes as a unified diff on stdout instead of findings; change no file")
	unsafeFixes := fs.Bool("unsafe-fixes", false, "with --fix or --diff, also apply or show the unsafe fixes (stubs to complete, changes of behaviour) of findings that have no safe one")
	// Inline suppressions for every finding (addnoqa.go).
	noqa := addAddNoqaFlags(fs)
	// Pre-commit and CI (newfromrev.go, precommit.go).
	newFromRev := fs.String("new-from-rev", "", "report only findings on lines changed since the git revision `REV`, or related to them (untracked files count as new)")
	preCommit := fs.Bool("pre-commit", false, "the arguments are FILEs, which may no longer exist: report only findings in them or related to them")
	// Editors and tools that pipe a buffer (stdin.go).
	stdinName := fs.String("stdin-filename", "", "read the content of `PATH` (an editor's buffer, a new file) from standard input, check the repository with it, and report the findings in PATH; with --fix, print the fixed buffer on stdout and the findings on stderr")
	// Configuration, rule and file selection (selection.go).
	sel := addSelectionFlags(fs)
	cacheOpts := addCacheFlags(fs)
	return func(paths []string) int {
		if *showVersion {
			fmt.Fprintf(stdout, "gymlint %s\n", version())
			return ExitClean
		}
		specs, err := outputs(formats, *outputFile)
		if err != nil {
			return usageError(stderr, fs, "%v", err)
		}
		for i, s := range specs {
			switch {
			case *showDiff && (i > 0 || s.path != "" || s.format != "text"):
				return usageError(stderr, fs, "--diff prints one unified diff, on stdout or to --output-file; it cannot be combined with --format %s", s.given)
			case *statistics && s.format != "text" && s.format != "json":
				return usageError(stderr, fs, "--statistics prints text or JSON, not --format %s", s.format)
			}
		}
		mode, ok := contract.ParseMode(*contractFlag)
		if !ok && *contractFlag != "" {
			return usageError(stderr, fs, "--contract must be auto or latest, not %q", *contractFlag)
		}
		if msg := checkRanges(*maxSize, *jobs); msg != "" {
			return usageError(stderr, fs, "%s", msg)
		}
		otherFormat := "" // a format --add-noqa has no use for: it prints no findings
		for _, sp := range specs {
			if sp.format != "text" || sp.path != "" {
				otherFormat = sp.given
				break
			}
		}
		if otherFormat == "" && *outputFile != "" {
			otherFormat = "text to --output-file"
		}
		if msg := noqa.check(*fix, *showDiff, *statistics, otherFormat); msg != "" {
			return usageError(stderr, fs, "%s", msg)
		}
		if *parseBudget < 0 {
			return usageError(stderr, fs, "--parse-budget must not be negative, not %d", *parseBudget)
		}
		if *stdinName != "" {
			switch {
			case *preCommit:
				return usageError(stderr, fs, "--stdin-filename checks one buffer; it cannot be combined with --pre-commit")
			case *newFromRev != "":
				return usageError(stderr, fs, "--new-from-rev reads the changed lines of the files on disk, not of the buffer --stdin-filename reads")
			case *noqa.on:
				return usageError(stderr, fs, "--add-noqa writes suppressions into the files on disk; it cannot be combined with --stdin-filename, whose buffer is not on disk")
			}
		}
		defer startMemoryGuard(maxMemory.megabytes(), stderr)()
		defer startPacer(true)()
		procs, restore := spareProc()
		defer restore()
		if *jobs == 0 {
			*jobs = min(procs, MaxJobs) // one worker a CPU, not one a P with the spare one
		}
		var t *target
		if *stdinName != "" {
			if t, err = stdinTarget(*rootFlag, *stdinName, paths); err != nil {
				return usageError(stderr, fs, "%v", err)
			}
		} else if t, err = findTarget(*rootFlag, paths, *preCommit); err != nil {
			fmt.Fprintf(stderr, "gymlint: %v\n", err)
			return ExitError
		}
		var exemptions []gym.Exemption
		for _, p := range exempt {
			exemptions = append(exemptions, gym.Exemption{Path: p, Reason: "given with --exempt", Flag: true})
		}
		conf, err := sel.load(t.root)
		if err != nil {
			return reportLoadError(stderr, fs, err)
		}
		extraRoots, err := userExtraRoots(extraRootFlags)
		if err != nil {
			fmt.Fprintf(stderr, "gymlint: %v\n", err)
			return ExitError
		}
		// With --stdin-filename, the buffer stands in for the file (the
		// overlay the language server gives unsaved buffers).
		var buffer []byte
		var overlay map[string][]byte
		if *stdinName != "" {
			if buffer, err = readBuffer(stdin, *stdinName, maxBuffer(*maxSize, conf.MaxFileSize)); err != nil {
				fmt.Fprintf(stderr, "gymlint: %v\n", err)
				return ExitError
			}
			overlay = map[string][]byte{t.shown[0]: buffer}
		}
		cache := cacheOpts.open(stderr)
		counted := fixesOnlyCounted(specs, *fix, *showDiff, *noqa.on)
		newEngineWith := func(overlay map[string][]byte, noGo bool) (*engine.Engine, error) {
			return engine.New(engine.Options{Root: t.root, Settings: conf, NoGitignore: sel.noGitignore, Jobs: *jobs, MaxFileSize: *maxSize, ParseBudget: *parseBudget, Exempt: exemptions,
				GoEnv: goEnv, GoNetwork: *goNetwork, GoAnalyzers: goAnalyzers(), NoGo: noGo,
				Contract: mode, VirtualEnv: contract.VirtualEnvFromEnvironment(), Overlay: overlay,
				ExtraRoots: extraRoots, IncludeExtraRoots: *includeExtra, Cache: cache, ExitAfterScan: true,
				FixesCounted: counted})
		}
		newEngine := func(overlay map[string][]byte) (*engine.Engine, error) { return newEngineWith(overlay, false) }
		e, err := newEngine(overlay)
		if err != nil {
			fmt.Fprintf(stderr, "gymlint: %v\n", err)
			return ExitError
		}

		keep, err := findingFilter(t.root, *newFromRev, t.scope)
		if err != nil {
			fmt.Fprintf(stderr, "gymlint: %v\n", err)
			return ExitError
		}
		start := time.Now()
		showProgress := !*quiet && isTerminal(stderr)
		noted := map[string]bool{}
		run := func() (*engine.Result, bool) {
			stop := func() {}
			if showProgress {
				stop = startProgress(stderr, e)
			}
			res, err := e.Scan(t.scope.Paths())
			stop()
			if err == nil {
				res.Diagnostics, err = keep(res.Diagnostics)
			}
			if err != nil {
				fmt.Fprintf(stderr, "gymlint: %v\n", err)
				return nil, false
			}
			for _, n := range res.Notes {
				if !noted[n] { // said once, though --fix checks twice
					noted[n] = true
					fmt.Fprintf(stderr, "gymlint: %s\n", n)
				}
			}
			return res, true
		}
		res, ok := run()
		if !ok {
			return ExitError
		}
		if !*quiet { // once a run: the contract does not change with --fix
			for _, n := range res.Contract {
				fmt.Fprintf(stderr, "gymlint: %s\n", n)
			}
			if *verbose {
				for _, d := range e.ContractDetail() {
					fmt.Fprintf(stderr, "gymlint:   %s\n", d)
				}
			}
		}
		// rescan lints the repository as the fixes would leave it, for
		// engine.PlanFixes to check that they create no finding.
		// The Go analyzers read the disk, not the overlay: when no Go file
		// changes, their findings cannot, and they are not run again
		// (fewer findings afterwards is no finding added).
		rescan := func(overlay map[string][]byte) ([]diag.Diagnostic, error) {
			goFixed := false
			for p := range overlay {
				goFixed = goFixed || strings.HasSuffix(p, ".go")
			}
			fe, err := newEngineWith(overlay, !goFixed)
			if err != nil {
				return nil, err
			}
			r, err := fe.Scan(t.scope.Paths())
			if err != nil {
				return nil, err
			}
			return keep(r.Diagnostics)
		}
		if *noqa.on {
			return addNoqa(stderr, t, res, *noqa.reason, *quiet, *verbose, *exitZero)
		}
		if *showDiff { // -diff, or -fix -diff as with go vet: show, change nothing
			diff := func(w io.Writer) error {
				plan, err := engine.PlanFixes(t.root, res.Diagnostics, fixOpts(res, *unsafeFixes), rescan)
				if err != nil {
					return err
				}
				return plan.Diff(w, stderr)
			}
			if buffer != nil { // the buffer's fixes, as a diff of the file
				diff = func(w io.Writer) error {
					b := fixes.FixBuffer(t.shown[0], buffer, res.Diagnostics, *unsafeFixes)
					sayAll(stderr, b.Skipped)
					_, err := io.WriteString(w, fixes.UnifiedDiff(t.shown[0], buffer, b.Edits, 3))
					return err
				}
			}
			if err := writeOutput(outputSpec{}, stdout, *outputFile, diff); err != nil {
				fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
				return ExitError
			}
			if !*quiet {
				printSummary(stderr, t, res, time.Since(start), *verbose)
				if h := fixes.Hint(res.Diagnostics, *unsafeFixes); h != "" {
					fmt.Fprintln(stderr, "gymlint: "+h)
				}
			}
			return exitFor(res.Diagnostics, false)
		}
		findingsOut := stdout
		if *fix && buffer != nil {
			// ruff's way: the fixed buffer on stdout, for the editor to
			// take; the findings left in it on stderr (or --output-file).
			b := fixes.FixBuffer(t.shown[0], buffer, res.Diagnostics, *unsafeFixes)
			sayAll(stderr, b.Skipped)
			if _, err := stdout.Write(b.Fixed); err != nil {
				fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
				return ExitError
			}
			findingsOut = stderr
			if b.Taken > 0 {
				fmt.Fprintf(stderr, "gymlint: applied %d %s to the buffer of %s, printed on stdout\n", b.Taken, plural(b.Taken, "fix", "fixes"), output.Visible(t.shown[0]))
				if e, err = newEngine(map[string][]byte{t.shown[0]: b.Fixed}); err != nil {
					fmt.Fprintf(stderr, "gymlint: %v\n", err)
					return ExitError
				}
				if res, ok = run(); !ok {
					return ExitError
				}
			}
		} else if *fix {
			// As ruff's --fix, in passes: a fix left out for overlapping
			// another is applied by the next pass, computed on the fixed
			// files (at most maxFixPasses; what is left then is reported).
			var total fixes.Applied
			for pass := 1; ; pass++ {
				plan, err := engine.PlanFixes(t.root, res.Diagnostics, fixOpts(res, *unsafeFixes), rescan)
				if err != nil {
					fmt.Fprintf(stderr, "gymlint: %v\n", err)
					return ExitError
				}
				more := plan.Taken() > 0 && len(plan.Skipped()) > 0 && pass < maxFixPasses
				if !more {
					plan.Report(stderr)
				}
				a, err := plan.Write(stderr)
				if err != nil {
					fmt.Fprintf(stderr, "gymlint: %v\n", err)
					return ExitError
				}
				total.Add(a)
				if plan.Taken() > 0 {
					if res, ok = run(); !ok {
						return ExitError
					}
				}
				if !more {
					break
				}
			}
			fmt.Fprintf(stderr, "gymlint: %s\n", total.Summary())
		}
		if err := writeFindings(specs, findingsOut, stderr, *outputFile, *statistics, t.root, res); err != nil {
			fmt.Fprintf(stderr, "gymlint: writing output: %v\n", err)
			return ExitError
		}
		if summarised(specs) && !*quiet {
			printSummary(stderr, t, res, time.Since(start), *verbose)
			if h := fixes.Hint(res.Diagnostics, *unsafeFixes); h != "" {
				fmt.Fprintln(stderr, "gymlint: "+h)
			}
		}
		return exitFor(res.Diagnostics, *exitZero)
	}
}

// fixOpts are the options of --fix and --diff: a fix is applied (or shown)
// only in a file that holds the content the scan analysed.
func fixOpts(res *engine.Result, unsafe bool) fixes.Options {
	return fixes.Options{Unsafe: unsafe, Analysed: res.Analysed}
}

// maxFixPasses bounds the passes of --fix.
const maxFixPasses = 8

// MaxJobs bounds --jobs.
const MaxJobs = 1024

// checkRanges says what is wrong with the values of --max-file-size and
// --jobs, or "". 0, their default, means the default (4 MiB; the number
// of CPUs).
func checkRanges(maxSize int64, jobs int) string {
	if maxSize < 0 || maxSize > settings.MaxFileSizeLimit {
		return fmt.Sprintf("--max-file-size must be a number of bytes from 1 to %d (1 GiB), not %d", settings.MaxFileSizeLimit, maxSize)
	}
	if jobs < 0 || jobs > MaxJobs {
		return fmt.Sprintf("--jobs must be from 1 to %d (leave it out for the number of CPUs), not %d", MaxJobs, jobs)
	}
	return ""
}

// exitFor is the exit status of a check that found ds: 2 when a rule
// failed (GL011: the check is incomplete), else 1 for findings unless
// exitZero, else 0.
func exitFor(ds []diag.Diagnostic, exitZero bool) int {
	switch {
	case engine.InternalErrors(ds) > 0:
		return ExitError
	case len(ds) > 0 && !exitZero:
		return ExitFindings
	}
	return ExitClean
}

func validFormat(f string) bool {
	for _, k := range output.Formats {
		if f == k {
			return true
		}
	}
	return false
}

// printSummary prints the summary line on stderr; with verbose, the paths
// checked before it, one a line.
func printSummary(stderr io.Writer, t *target, res *engine.Result, took time.Duration, verbose bool) {
	if verbose && !t.scope.All() {
		for _, p := range t.shown {
			fmt.Fprintf(stderr, "gymlint: checked %s\n", p)
		}
	}
	fmt.Fprintln(stderr, summary(t, res, took))
}

// maxShownPath bounds a path the summary line shows: a longer root keeps
// its end, a longer PATH is counted.
const maxShownPath = 80

// summary is the line that ends a check on stderr. It counts (findings,
// the PATHs checked, entrypoints, configs, modules) and never lists, so
// that it stays short whatever the command line (pre-commit passes every
// file): under 300 characters.
func summary(t *target, res *engine.Result, took time.Duration) string {
	n := len(res.Diagnostics)
	noun := "findings"
	if n == 1 {
		noun = "finding"
	}
	in := ""
	if !t.scope.All() {
		if len(t.shown) == 1 && len(t.shown[0]) <= maxShownPath {
			in = " in " + t.shown[0]
		} else {
			in = fmt.Sprintf(" in %s %s", thousands(len(t.shown)), plural(len(t.shown), "path", "paths"))
		}
	}
	goPart := ""
	if g := res.Go; g != nil {
		goPart = fmt.Sprintf(", %d Go %s in %d %s", g.Packages, plural(g.Packages, "package", "packages"),
			len(g.Modules), plural(len(g.Modules), "module", "modules"))
	}
	cached := ""
	if c := res.Cache; c.Used && c.AnalysedEntrypoints < res.Entrypoints {
		cached = fmt.Sprintf(" (%d from the cache)", res.Entrypoints-c.AnalysedEntrypoints)
	}
	return fmt.Sprintf("gymlint: %d %s%s; root %s; %d entrypoints%s, %d config files, %d Python modules parsed%s in %s",
		n, noun, in, clipPath(t.describeRoot(), maxShownPath), res.Entrypoints, cached, res.Configs, res.Modules, goPart,
		strconv.FormatFloat(took.Seconds(), 'f', 2, 64)+"s")
}

// thousands writes n with commas between groups of three digits: 2,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// clipPath is p, or its end after "..." when p is longer than n bytes.
func clipPath(p string, n int) string { return clip.Tail(p, n) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// stepSummaryEnv names the file GitHub Actions shows as the step's summary.
const stepSummaryEnv = "GITHUB_STEP_SUMMARY"

// openStepSummary opens $GITHUB_STEP_SUMMARY for appending (it never reads
// it), or returns nil when the variable is unset or empty, or the file
// cannot be opened (said on stderr: the check goes on without it).
func openStepSummary(stderr io.Writer) *os.File {
	path := os.Getenv(stepSummaryEnv)
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %s: %v; no step summary written\n", stepSummaryEnv, err)
		return nil
	}
	return f
}
