package goanalysis

import (
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/token"
	"sync"
)

// parsedSums are the SHA-256 sums of the root's Go files as the analyzers
// parsed them: a suggested fix's offsets are into those bytes, and
// gymlint --fix applies it only to a file that still holds them (package
// fixes).
type parsedSums struct {
	mu sync.Mutex
	m  map[string]parsedSum // by root-relative path
}

type parsedSum struct {
	sum [sha256.Size]byte
	// varied: the file was parsed twice with different contents (it
	// changed during the run).
	varied bool
}

// note records that filename was parsed from src, when it is a file of the
// root.
func (c *converter) noteParsed(filename string, src []byte) {
	rel, ok := c.root.rel(filename)
	if !ok {
		return
	}
	s := parsedSum{sum: sha256.Sum256(src)}
	c.parsed.mu.Lock()
	defer c.parsed.mu.Unlock()
	if c.parsed.m == nil {
		c.parsed.m = map[string]parsedSum{}
	}
	if prev, ok := c.parsed.m[rel]; ok && (prev.varied || prev.sum != s.sum) {
		s.varied = true
	}
	c.parsed.m[rel] = s
}

// parseFile is packages.Config.ParseFile: go/packages' own parse (the same
// mode), noting what was parsed.
func (c *converter) parseFile(fset *token.FileSet, filename string, src []byte) (*ast.File, error) {
	c.noteParsed(filename, src)
	return parser.ParseFile(fset, filename, src, parser.AllErrors|parser.ParseComments)
}

// ParsedSum returns the SHA-256 of a root-relative Go file as the analyzers
// parsed it: parsed is false when they did not parse it, varied true when
// they parsed different contents of it (sum is then the last one's).
func (r *Result) ParsedSum(path string) (sum [sha256.Size]byte, parsed, varied bool) {
	s, ok := r.parsed[path]
	return s.sum, ok, s.varied
}
