// Command tsparse is the "tree-sitter parsing alone" baseline for gymlint's
// benchmarks: it parses every .py file under ROOT with tree-sitter-python
// and prints how many files and bytes it parsed.
//
//	tsparse [-j N] [-read] ROOT
//
// With -read it only reads the files (the "reading the bytes" baseline).
//
// It selects files as bench/pyparse.py does: every regular file whose name
// ends in .py, skipping directories whose names start with a dot (.git,
// .venv, ...) and not following symbolic links. Each of N goroutines (default
// runtime.NumCPU()) reads and parses files with its own parser and closes
// every tree it gets.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	python "github.com/tree-sitter/tree-sitter-python/bindings/go"

	// Puts tree-sitter on the C allocator, as in gymlint itself, so that the
	// baseline measures the same allocator.
	_ "github.com/gymlint/gymlint/pyscan"
)

func main() {
	jobs := flag.Int("j", runtime.NumCPU(), "number of parsing goroutines")
	readOnly := flag.Bool("read", false, "only read the files, parse none")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: tsparse [-j N] [-read] ROOT\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 || *jobs < 1 {
		flag.Usage()
		os.Exit(2)
	}
	files, err := pythonFiles(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsparse:", err)
		os.Exit(1)
	}
	nfiles, nbytes, err := parseAll(files, *jobs, *readOnly)
	if err != nil {
		fmt.Fprintln(os.Stderr, "tsparse:", err)
		os.Exit(1)
	}
	fmt.Printf("files=%d bytes=%d\n", nfiles, nbytes)
}

// pythonFiles lists the .py files under root in lexical order.
func pythonFiles(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		// WalkDir reports a symbolic link as a non-directory entry with
		// ModeSymlink set and does not follow it.
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".py") {
			files = append(files, path)
		}
		return nil
	})
	return files, err
}

func parseAll(files []string, jobs int, readOnly bool) (nfiles int, nbytes int64, err error) {
	paths := make(chan string)
	type result struct {
		files int
		bytes int64
		err   error
	}
	results := make(chan result, jobs)
	lang := sitter.NewLanguage(python.Language())
	var wg sync.WaitGroup
	for i := 0; i < jobs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res result
			parser := sitter.NewParser()
			defer parser.Close()
			if err := parser.SetLanguage(lang); err != nil {
				res.err = err
				results <- res
				for range paths {
				}
				return
			}
			for path := range paths {
				if res.err != nil {
					continue // drain
				}
				src, err := os.ReadFile(path)
				if err != nil {
					res.err = err
					continue
				}
				if readOnly {
					res.files++
					res.bytes += int64(len(src))
					continue
				}
				tree := parser.Parse(src, nil)
				if tree == nil {
					res.err = fmt.Errorf("%s: tree-sitter returned no tree", path)
					continue
				}
				tree.Close()
				res.files++
				res.bytes += int64(len(src))
			}
			results <- res
		}()
	}
	for _, p := range files {
		paths <- p
	}
	close(paths)
	wg.Wait()
	close(results)
	for res := range results {
		nfiles += res.files
		nbytes += res.bytes
		if err == nil {
			err = res.err
		}
	}
	return nfiles, nbytes, err
}
