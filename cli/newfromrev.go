package cli

import (
	"bytes"
	"fmt"
	"os/exec"
	"path"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/diag"
)

// changedLines is the set of lines changed since a revision, by path
// relative to the scanned root. A file with whole set is new (untracked,
// or added since the revision's tree did not have it): every line counts.
type changedLines map[string]*fileChanges

type fileChanges struct {
	whole bool
	lines map[int]bool
}

func (c changedLines) add(p string, from, n int) {
	f := c[p]
	if f == nil {
		f = &fileChanges{lines: map[int]bool{}}
		c[p] = f
	}
	for l := from; l < from+n; l++ {
		f.lines[l] = true
	}
}

// has reports whether line of p is changed. Line 0 (a finding about the
// file as a whole) counts only when the whole file is new.
func (c changedLines) has(p string, line int) bool {
	f := c[p]
	if f == nil {
		return false
	}
	return f.whole || f.lines[line]
}

// git runs git -C root with args and returns its stdout.
func git(root string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", root}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out.Bytes(), nil
}

// gitPrefix returns root's path inside its git work tree ("" at the top,
// else "sub/dir/"), or an error when root is not in a git work tree.
func gitPrefix(root string) (string, error) {
	out, err := git(root, "rev-parse", "--show-prefix")
	if err != nil {
		return "", fmt.Errorf("--new-from-rev needs a git repository: %s is not in a git work tree (%v)", root, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// checkRev fails when rev does not name a commit of the repository at root.
func checkRev(root, rev string) error {
	if _, err := gitPrefix(root); err != nil {
		return err
	}
	if strings.HasPrefix(rev, "-") {
		return fmt.Errorf("--new-from-rev %q: not a revision", rev)
	}
	if _, err := git(root, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return fmt.Errorf("--new-from-rev %q: unknown revision (no such commit in the repository at %s)", rev, root)
	}
	return nil
}

// changedSince returns the lines of the working tree under root that changed
// since rev: the hunks of git diff rev (committed, staged and unstaged
// changes), and every line of the untracked files that git does not ignore.
func changedSince(root, rev string) (changedLines, error) {
	if err := checkRev(root, rev); err != nil {
		return nil, err
	}
	prefix, err := gitPrefix(root)
	if err != nil {
		return nil, err
	}
	out, err := git(root, "diff", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--src-prefix=a/", "--dst-prefix=b/", rev, "--")
	if err != nil {
		return nil, err
	}
	changed, err := parseDiff(out, prefix)
	if err != nil {
		return nil, err
	}
	untracked, err := git(root, "ls-files", "--others", "--exclude-standard", "--full-name", "-z", "--", ".")
	if err != nil {
		return nil, err
	}
	for _, p := range strings.Split(string(untracked), "\x00") {
		if rel, ok := underPrefix(p, prefix); ok && p != "" {
			changed.add(rel, 0, 0)
			changed[rel].whole = true
		}
	}
	return changed, nil
}

// underPrefix strips prefix (a git show-prefix, "" or ending in "/") from a
// repository-relative path, reporting whether the path is under it.
func underPrefix(p, prefix string) (string, bool) {
	if !strings.HasPrefix(p, prefix) {
		return "", false
	}
	return p[len(prefix):], true
}

// parseDiff reads the output of git diff --unified=0 (paths relative to the
// top of the work tree, a/ and b/ prefixes) and returns the added or changed
// lines of the new side by path relative to prefix. Files outside prefix and
// deleted files are left out.
func parseDiff(out []byte, prefix string) (changedLines, error) {
	changed := changedLines{}
	cur, inPrefix := "", false
	for _, line := range strings.Split(string(out), "\n") {
		switch {
		case strings.HasPrefix(line, "diff --git "):
			cur, inPrefix = "", false
		case strings.HasPrefix(line, "+++ "):
			name := strings.TrimSuffix(line[4:], "\t")
			if name == "/dev/null" {
				cur, inPrefix = "", false
				continue
			}
			if strings.HasPrefix(name, `"`) {
				u, err := strconv.Unquote(name)
				if err != nil {
					return nil, fmt.Errorf("git diff: cannot read file name %s", name)
				}
				name = u
			}
			name = strings.TrimPrefix(name, "b/")
			cur, inPrefix = underPrefix(path.Clean(name), prefix)
		case strings.HasPrefix(line, "@@ ") && inPrefix:
			from, n, err := parseHunk(line)
			if err != nil {
				return nil, err
			}
			changed.add(cur, from, n)
		}
	}
	return changed, nil
}

// parseHunk reads "@@ -a[,b] +c[,d] @@ ..." and returns c and d (d is 1
// when left out; 0 for a pure deletion).
func parseHunk(line string) (from, n int, err error) {
	fields := strings.Fields(line)
	if len(fields) < 3 || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, fmt.Errorf("git diff: bad hunk header %q", line)
	}
	spec := fields[2][1:]
	count := "1"
	if i := strings.IndexByte(spec, ','); i >= 0 {
		spec, count = spec[:i], spec[i+1:]
	}
	if from, err = strconv.Atoi(spec); err == nil {
		n, err = strconv.Atoi(count)
	}
	if err != nil || from < 0 || n < 0 {
		return 0, 0, fmt.Errorf("git diff: bad hunk header %q", line)
	}
	return from, n, nil
}

// keepChanged keeps the findings that touch a changed line: one of their
// own lines (start to end), or a line of one of their related positions
// (the changed helper module whose import a finding on an entrypoint is
// about), as --pre-commit keeps the findings related to its files.
func keepChanged(ds []diag.Diagnostic, changed changedLines) []diag.Diagnostic {
	kept := make([]diag.Diagnostic, 0, len(ds))
	for _, d := range ds {
		touches := changed.spans(d.Path, d.Start.Line, d.End.Line)
		for _, r := range d.Related {
			touches = touches || changed.spans(r.Path, r.Start.Line, r.End.Line)
		}
		if touches {
			kept = append(kept, d)
		}
	}
	return kept
}

// spans reports whether a line from first to last of p is changed (line 0,
// a finding about the file as a whole, counts when the whole file is new).
func (c changedLines) spans(p string, first, last int) bool {
	if last < first {
		last = first
	}
	if c.has(p, first) {
		return true
	}
	f := c[p]
	if f == nil {
		return false
	}
	for l := max(first, 1); l <= last; l++ {
		if f.lines[l] {
			return true
		}
	}
	return false
}
