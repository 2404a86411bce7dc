package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/internal/repofs"
	"github.com/gymlint/gymlint/output"
)

// stdin is what the check reads with --stdin-filename and what `gymlint
// lsp` reads; tests replace it.
var stdin io.Reader = os.Stdin

// stdinTarget is the target of --stdin-filename path: the root (rootFlag,
// else found from path as for `gymlint path`, from its nearest directory
// that exists when it does not: a new file), and the scope of path alone.
// The error is a usage error: path is a directory, the root itself, or
// outside the root; positional arguments other than "-" were given.
func stdinTarget(rootFlag, path string, positional []string) (*target, error) {
	for _, p := range positional {
		if p != "-" {
			return nil, fmt.Errorf("--stdin-filename checks standard input as %s: give no PATH (or -), not %s", path, p)
		}
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, fmt.Errorf("--stdin-filename %s is a directory: name the file the buffer is of", path)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("--stdin-filename: %v", err)
	}
	// The root is found from PATH, as for `gymlint PATH`, or, for a new
	// file, from its nearest directory that exists.
	start := filepath.Clean(path)
	for {
		if _, err := os.Stat(start); err == nil {
			break
		}
		up := filepath.Dir(start)
		if up == start {
			break
		}
		start = up
	}
	r, err := rootOf(rootFlag, start)
	if err != nil {
		if rootFlag == "" {
			return nil, fmt.Errorf("--stdin-filename: %v", err)
		}
		return nil, err
	}
	t := &target{marker: r.Marker, root: displayRoot(r.Dir, rootFlag, start)}
	rel, err := r.Rel(path)
	if err != nil {
		return nil, fmt.Errorf("--stdin-filename %s is outside the repository root %s: the buffer must be of a file inside it", path, t.root)
	}
	if _, ok := repofs.Clean(rel); !ok || rel == "." {
		return nil, fmt.Errorf("--stdin-filename %s is not a file inside the repository root %s", path, t.root)
	}
	t.shown = []string{rel}
	t.scope = engine.NewScope(t.shown)
	return t, nil
}

// readBuffer reads the buffer from r: at most max bytes (the largest file
// the check reads), else an error, so that a pipe that never ends cannot
// fill the memory.
func readBuffer(r io.Reader, name string, max int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input (--stdin-filename %s): %v", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("standard input (--stdin-filename %s) is larger than %d bytes, the largest file gymlint reads (--max-file-size raises it)", name, max)
	}
	return data, nil
}

// maxBuffer is the largest buffer --stdin-filename reads: --max-file-size,
// else the configuration's max_file_size, else the default.
func maxBuffer(flag, configured int64) int64 {
	switch {
	case flag > 0:
		return flag
	case configured > 0:
		return configured
	}
	return repofs.DefaultMaxFileSize
}

// sayAll writes each of gymlint's messages on w, escaped (output.Visible):
// paths and fix messages come from the repository.
func sayAll(w io.Writer, msgs []string) {
	for _, m := range msgs {
		fmt.Fprintf(w, "gymlint: %s\n", output.Visible(m))
	}
}
