// Package gymtest checks gymlint's Python rules against small repositories
// kept as real files, as golang.org/x/tools/go/analysis/analysistest checks
// Go analyzers: the findings a case must produce are written as comments
// on the lines where they must be reported.
//
// # Cases
//
// A case is a directory under a package's testdata/src/ that is a whole
// repository root: real .py and .yaml files (resources_servers/<dir>/app.py,
// resources_servers/<dir>/configs/*.yaml, ...), optionally a .gymlint.yaml
// (or pyproject.toml) with exemptions and settings, optionally a framework
// package nemo_gym/ of its own. The subtest of a case is named by its
// directory, so a case is named after what it tests:
//
//	analyzers/sessions/testdata/src/seed-raises-valueerror/resources_servers/s/app.py
//
// # A framework shared by the cases
//
// Cases that need the framework inside the repository need not each carry a
// copy of it: Framework(dir) overlays the files under dir into every case
// run with that option, at their paths relative to dir (through
// gym.Options.Overlay; nothing is copied). A file of the case itself wins
// over the framework's file at the same path, so a case can change one
// module of the framework. Cases that test a framework installed outside
// the repository are run without the option, from a directory of their
// own (Run's dir).
//
// # Expectations
//
// A comment `# want "regexp"` on a line (Python or YAML: the .py, .yaml,
// .yml and .toml files of the case) says that exactly one diagnostic
// starts on that line whose `CODE message` (the rule code, one space, the
// message, and, when it has one, " help: " and its help) matches
// the regular expression; so `# want "GL301 .*raises
// ValueError"` and `# want "raises ValueError"` both do. Several quoted
// regexps in one comment are several diagnostics on that line. The
// regexps are Go string literals, "..." or `...`, as analysistest takes
// them. `# want +N "regexp"` is about the line N lines below the
// comment, for a line that cannot hold a comment (inside a string).
//
// `# related "regexp"` says that some diagnostic under test has a related
// position (diag.Related) that starts on that line of that file and whose
// message matches; each `# related` regexp is matched by a different
// related position. Related positions that no comment mentions are not
// checked.
//
// Expectations can share a line with other comments: a `# want` or `#
// related` is found anywhere in the line (even after a `# gymlint:
// ignore[...]` suppression, whose reason ends where the next `# ` starts),
// and the text after its quoted regexps must be empty or another comment.
//
// # Which diagnostics are checked
//
// Those of the analyzers under test (diag.Diagnostic.Analyzer, such as
// "sessions"), and those of the core rules (Analyzer "core": a fixture
// that does not parse, or a config that names a missing file, must say
// so) and of the suppression rules (suppress.Rules). Every checked
// diagnostic must be expected, and every expectation matched; both are
// reported as analysistest reports them, with the file, the line and the
// message. Diagnostics of other analyzers (a workers GL101 in a sessions
// case) are ignored. Every checked diagnostic must also end where or after
// it starts, and every edit of its suggested fixes must lie in its file,
// with lines and columns that agree with its byte offsets.
//
// # The engine
//
// A case runs through the pipeline of the command line: settings.Load of
// the case's configuration, lint.Run with the options the CLI derives from
// it (server types, framework package, file size limit, exemptions) and
// the framework overlay, the inline suppressions (suppress.Apply over the
// entrypoints and configs read, with lint.Lookup), then the rule selection,
// severities and per-path ignores of the configuration (policy.Apply), in
// the order cli applies them. The Go analyzers do not run (a case
// is a Python repository).
//
// # Suggested fixes
//
// A file X of a case with an X.golden beside it is checked against the
// golden after the suggested fixes of the checked diagnostics are applied:
// the edits of X of every fix (safe and unsafe alike, as analysistest
// applies them all), each edit once when two fixes make the same one.
// Edits of two fixes that overlap fail the case. The golden is either
//
//   - the whole fixed file, compared byte for byte (line endings and a
//     missing final newline included); or
//   - a txtar archive (golang.org/x/tools/txtar) with one section per fix
//     message, for a diagnostic that offers alternative fixes: the section
//     named `MESSAGE` holds X after the fixes with that message, and the
//     section `MESSAGE (unsafe)` after the unsafe ones. Every message whose
//     fixes edit X needs its section, and every section is compared (a
//     section of a message that does not edit X must hold X unchanged).
//     txtar ends every section with a newline.
//
// A golden identical to its file says that no fix edits it. In a case with
// at least one golden, every file a fix edits must have one. After the
// fixes of a golden (or of one section, across all the files it edits) are
// applied, the case is linted again with the fixed files: a fixed file must
// parse (no GL001), and each rule whose fixes were applied must report at
// least as many fewer findings in the fixed files as there were fixed
// diagnostics there.
//
// Run the test binary with -update to rewrite the goldens (and create the
// missing ones of a case that has goldens) from the fixes; an empty golden
// is written in the form its fixes need (sections when they have several
// messages). gymtest reads the
// flag named "update" of the test binary; the test package defines it
// (flag.Bool("update", ...)), once, beside its other golden files' flag.
//
// # Use
//
//	func TestCases(t *testing.T) {
//		gymtest.Run(t, "testdata", []string{"sessions"}, gymtest.Framework("testdata/framework"))
//	}
//
// runs every case under testdata/src as a subtest; Cases("a", "b") runs
// only those. RunCase checks one case directory with any Testing.
package gymtest
