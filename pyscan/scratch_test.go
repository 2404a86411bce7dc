package pyscan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestScratch(t *testing.T) {
	if os.Getenv("PYSRC") == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(os.Getenv("PYSRC"))
	p := NewParser(Options{})
	defer p.Close()
	m := p.Parse("pkg/app.py", src)
	for _, s := range m.Body {
		t.Log(dump(s))
	}
	if m.SyntaxError != nil {
		t.Log("SYNTAX", m.SyntaxError)
	}
}

func TestScratchRepo(t *testing.T) {
	root := os.Getenv("PYREPO")
	if root == "" {
		t.Skip()
	}
	p := NewParser(Options{})
	defer p.Close()
	var files, bytes, errs, nodes int
	var el time.Duration
	filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".py") {
			return nil
		}
		src, _ := os.ReadFile(path)
		st := time.Now()
		m := p.Parse(path, src)
		el += time.Since(st)
		files++
		bytes += len(src)
		if m.SyntaxError != nil {
			errs++
		}
		InspectBody(m.Body, func(n Node, stack []Node) bool { nodes++; return true })
		return nil
	})
	t.Logf("files %d bytes %d syntax errors %d nodes %d parse %v", files, bytes, errs, nodes, el)
}
