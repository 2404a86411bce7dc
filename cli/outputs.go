package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/lint"
	"github.com/gymlint/gymlint/output"
)

// An outputSpec is one --format of the check: a format, and the file it is
// written to ("": the main destination, stdout or --output-file).
type outputSpec struct {
	format string
	path   string
	given  string // the --format value, for messages
}

// formatsFlag is the check's --format: repeatable, each NAME or NAME:FILE
// (golangci-lint's --out-format), parsed by outputs.
type formatsFlag []string

func (f *formatsFlag) String() string     { return strings.Join(*f, ",") }
func (f *formatsFlag) Set(s string) error { *f = append(*f, s); return nil }

// outputs are the check's destinations: the --format values (text to the
// main destination when none is given), each checked. The error is a
// usage error: an unknown format, a FILE that is a directory, two formats
// to one destination, more than one format without a FILE, --output-file
// when every format has its own FILE.
func outputs(formats []string, outputFile string) ([]outputSpec, error) {
	if len(formats) == 0 {
		formats = []string{"text"}
	}
	if outputFile != "" {
		if err := checkOutputFile(outputFile); err != nil {
			return nil, fmt.Errorf("--output-file: %v", err)
		}
	}
	type taken struct{ flag, shown string }
	by := map[string]taken{} // destination → the --format that writes it
	var specs []outputSpec
	for _, f := range formats {
		name, path, hasPath := strings.Cut(f, ":")
		if !validFormat(name) {
			return nil, fmt.Errorf("unknown --format %q (known: %s); NAME:FILE writes one to FILE", name, strings.Join(output.Formats, ", "))
		}
		if hasPath && path == "" {
			return nil, fmt.Errorf("--format %s: no FILE after the colon", f)
		}
		dest, shown := "stdout", "stdout"
		switch {
		case hasPath:
			if err := checkOutputFile(path); err != nil {
				return nil, fmt.Errorf("--format %s: %v", f, err)
			}
			dest, shown = destKey(path), path
		case outputFile != "":
			dest, shown = destKey(outputFile), outputFile
		}
		if prev, ok := by[dest]; ok {
			if dest == "stdout" {
				return nil, fmt.Errorf("%s and --format %s both go to stdout: give all but one a FILE (NAME:FILE)", prev.flag, f)
			}
			return nil, fmt.Errorf("%s and --format %s both write %s: give each its own FILE", prev.flag, f, prev.shown)
		}
		by[dest] = taken{"--format " + f, shown}
		specs = append(specs, outputSpec{format: name, path: path, given: f})
	}
	if outputFile != "" && !slices.ContainsFunc(specs, func(s outputSpec) bool { return s.path == "" }) {
		if t, ok := by[destKey(outputFile)]; ok {
			return nil, fmt.Errorf("%s and --output-file %s both write %s: give each its own FILE", t.flag, outputFile, t.shown)
		}
		return nil, fmt.Errorf("--output-file %s receives the --format given without a FILE, and every --format has one", outputFile)
	}
	return specs, nil
}

// destKey names a file destination so that two names of one file are one
// key: its absolute, clean path, through symbolic links where they exist.
func destKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	// The file itself may not exist yet: resolve its nearest existing
	// ancestor, and keep the rest of the path as given.
	rest := ""
	for p := filepath.Clean(path); ; {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return "file " + filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
	return "file " + filepath.Clean(path)
}

// checkOutputFile says what is wrong with a FILE to write the findings to,
// before the check: it must not be a directory (a missing parent
// directory is created when the findings are written).
func checkOutputFile(path string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s is a directory", path)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return nil
}

// writeOutput writes one output: to stdout (mainOut) or --output-file for
// a spec without a FILE, else to its FILE. A file is written whole or not
// at all (writeFileAtomic).
func writeOutput(spec outputSpec, mainOut io.Writer, outputFile string, write func(w io.Writer) error) error {
	path := spec.path
	if path == "" {
		path = outputFile
	}
	if path == "" {
		return write(mainOut)
	}
	return writeFileAtomic(path, write)
}

// writeFileAtomic writes name through a temporary file in its directory,
// renamed over it once complete, so that a reader (a CI step uploading a
// SARIF file) never sees half of it and a failed check leaves the old one.
// Missing parent directories are created, as ruff and golangci-lint do. A
// symbolic link is followed: the file it names is replaced. A new file has
// mode 0644; an existing one keeps its mode.
func writeFileAtomic(name string, write func(w io.Writer) error) (err error) {
	target := name
	if real, err := filepath.EvalSymlinks(name); err == nil {
		target = real
	}
	if st, err := os.Stat(target); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory", name)
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(target); err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriter(tmp)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), target)
}

// writeFindings writes the check's findings (with statistics, the counts
// per rule) to each destination of specs, in its format: the same bytes a
// format gives on stdout alone. The github format appends the step summary
// once a run, for the first of them. An error writing one destination does
// not stop the others; the first is returned.
func writeFindings(specs []outputSpec, stdout, stderr io.Writer, outputFile string, statistics bool, root string, res *engine.Result) error {
	var first error
	summaryDone := false
	for _, spec := range specs {
		err := writeOutput(spec, stdout, outputFile, func(w io.Writer) error {
			if statistics {
				return writeStatistics(w, spec.format, res.Diagnostics)
			}
			opts := output.Options{Root: root, Source: res.Source, Rules: ruleLookup, Catalog: lint.Rules(), Version: version()}
			switch spec.format {
			case "full":
				opts.Color = useColor(w, os.Getenv)
				opts.Display = cwdRelative(root)
			case "text":
				opts.Display = cwdRelative(root)
			}
			var summaryFile *os.File
			if spec.format == "github" && !summaryDone {
				summaryDone = true
				if summaryFile = openStepSummary(stderr); summaryFile != nil {
					opts.StepSummary = summaryFile
				}
			}
			err := output.Write(w, spec.format, res.Diagnostics, opts)
			if summaryFile != nil {
				if cerr := summaryFile.Close(); cerr != nil && err == nil {
					err = fmt.Errorf("%w: %v", output.ErrStepSummary, cerr)
				}
			}
			if errors.Is(err, output.ErrStepSummary) {
				// The annotations are out; a missing step summary does
				// not change the check's outcome.
				fmt.Fprintf(stderr, "gymlint: %s: %v\n", stepSummaryEnv, err)
				err = nil
			}
			return err
		})
		if err != nil && first == nil {
			first = err
		}
	}
	return first
}

// summarised reports whether a check with these outputs prints the summary
// line on stderr: when one of them is text or full, the formats read by
// people (the others are read by programs, which want nothing else).
func summarised(specs []outputSpec) bool {
	for _, s := range specs {
		if s.format == "text" || s.format == "full" {
			return true
		}
	}
	return false
}

// fixesOnlyCounted reports whether the check only counts its findings'
// fixes: no output shows them (the full and JSON formats do; text, SARIF
// and GitHub count them in the summary line, or not at all) and neither
// --fix nor --diff applies or prints them (--add-noqa prints nothing). The
// engine may then leave out what only chooses among a finding's fixes
// (gym.Options.FixesCounted).
func fixesOnlyCounted(specs []outputSpec, fix, diff, addNoqa bool) bool {
	if fix || diff || addNoqa {
		return false
	}
	for _, s := range specs {
		switch s.format {
		case "text", "sarif", "github":
		default:
			return false
		}
	}
	return true
}
