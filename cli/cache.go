package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/gymlint/gymlint/internal/diskcache"
)

// The disk cache: what a check computed, kept between runs (package
// diskcache, and engine/warm.go for what the Python side keeps). It is on
// by default, in $GYMLINT_CACHE_DIR, else $XDG_CACHE_HOME/gymlint, else the
// user cache directory's gymlint; --cache-dir chooses the directory,
// --no-cache (or GYMLINT_NO_CACHE=1) turns it off. Its entries are
// authenticated with a key kept outside it ($GYMLINT_CACHE_KEY, else
// <user config dir>/gymlint/cache-key; diskcache.Open).

// cacheFlags are the check's cache flags.
type cacheFlags struct {
	dir     *string
	noCache *bool
}

func addCacheFlags(fs *flag.FlagSet) cacheFlags {
	return cacheFlags{
		dir:     fs.String("cache-dir", "", "keep the cache in this `DIR` (default: $GYMLINT_CACHE_DIR, else $XDG_CACHE_HOME/gymlint, else the user cache directory's gymlint)"),
		noCache: fs.Bool("no-cache", false, "neither read nor write the cache (also GYMLINT_NO_CACHE=1)"),
	}
}

// cacheDir is the directory the flags and the environment choose, "" when
// the cache is off.
func (f cacheFlags) cacheDir() (string, error) {
	if *f.noCache || truthy(os.Getenv("GYMLINT_NO_CACHE")) {
		return "", nil
	}
	if *f.dir != "" {
		return *f.dir, nil
	}
	if d := os.Getenv("GYMLINT_CACHE_DIR"); d != "" {
		return d, nil
	}
	return diskcache.DefaultDir()
}

// open opens the cache, nil when it is off or cannot be used (said once on
// stderr: the check goes on without it). A write that fails later (a full
// disk) is said once too, and the check goes on without writing to it.
func (f cacheFlags) open(stderr io.Writer) *diskcache.Cache {
	dir, err := f.cacheDir()
	if err == nil && dir == "" {
		return nil
	}
	var c *diskcache.Cache
	if err == nil {
		c, err = diskcache.Open(dir, diskcache.Options{OnWriteError: func(err error) {
			fmt.Fprintf(stderr, "gymlint: the cache cannot be written (%v); checking goes on without writing to it\n", err)
		}})
	}
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: the cache cannot be used (%v); checking without it (--no-cache says so quietly)\n", err)
		return nil
	}
	return c
}

// truthy reports whether an environment variable's value turns something
// on.
func truthy(v string) bool {
	b, err := strconv.ParseBool(v)
	return err == nil && b
}

const cleanAbout = `Removes gymlint's cache and says how many entries and bytes it held; with
--dry-run, only says where it is and what it holds. The cache keeps what
earlier checks computed, by content hash, so that a check of unchanged
files reads it instead of computing it again; it is bounded (the least
recently used entries go first) and safe to remove at any time. Its
directory is --cache-dir, else $GYMLINT_CACHE_DIR, else
$XDG_CACHE_HOME/gymlint, else the user cache directory's gymlint. Only the
cache's own files are removed (its entries, README, CACHEDIR.TAG and
trim.txt); the directory goes when nothing else is left in it. (A
directory named "clean" is checked with "gymlint ./clean".)
`

// cleanCmd is `gymlint clean`. Exit status 0, or 2 for bad usage or a cache
// that cannot be removed.
func cleanCmd(fs *flag.FlagSet, stdout, stderr io.Writer) func(args []string) int {
	dirFlag := fs.String("cache-dir", "", "the cache `DIR`")
	dry := fs.Bool("dry-run", false, "say where the cache is and what it holds; remove nothing")
	return func(args []string) int {
		if len(args) > 0 {
			return usageError(stderr, fs, "unexpected arguments: %s", strings.Join(args, " "))
		}
		return clean(*dirFlag, *dry, stdout, stderr)
	}
}

// clean removes the cache at dirFlag (default: the usual place), or with
// dry only says what it holds.
func clean(dirFlag string, dry bool, stdout, stderr io.Writer) int {
	no := false
	dir, err := cacheFlags{dir: &dirFlag, noCache: &no}.cacheDir()
	if err != nil {
		fmt.Fprintf(stderr, "gymlint clean: %v\n", err)
		return ExitError
	}
	if _, err := os.Stat(dir); os.IsNotExist(err) {
		fmt.Fprintf(stdout, "%s: no cache\n", dir)
		return ExitClean
	}
	// Inspected, not opened: nothing is written, and no key is needed.
	c, err := diskcache.Inspect(dir)
	if err != nil {
		fmt.Fprintf(stderr, "gymlint clean: %v\n", err)
		return ExitError
	}
	n, b := c.Size()
	if dry {
		fmt.Fprintf(stdout, "%s: %d entries, %s (bounded to %s)\n", dir, n, megabytes(b), megabytes(diskcache.DefaultMaxBytes))
		return ExitClean
	}
	if err := c.Clean(); err != nil {
		fmt.Fprintf(stderr, "gymlint clean: %v\n", err)
		return ExitError
	}
	fmt.Fprintf(stdout, "%s: removed %d entries (%s)\n", dir, n, megabytes(b))
	return ExitClean
}

func megabytes(b int64) string {
	return strconv.FormatFloat(float64(b)/(1<<20), 'f', 1, 64) + " MB"
}
