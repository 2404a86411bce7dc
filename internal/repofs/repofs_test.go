package repofs_test

import (
	"crypto/sha256"
	"errors"
	"github.com/gymlint/gymlint/internal/testtree"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/repofs"
)

// writeTree writes files (slash path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) { testtree.Write(t, dir, files) }

func link(t *testing.T, dir, rel, target string) {
	t.Helper()
	full := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, full); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, dir string, opts repofs.Options) *repofs.FS {
	t.Helper()
	f, err := repofs.New(dir, opts)
	if err != nil {
		t.Fatalf("New(%s): %v", dir, err)
	}
	return f
}

func TestClean(t *testing.T) {
	cases := []struct {
		in   string
		want string
		ok   bool
	}{
		{"a/b.py", "a/b.py", true},
		{"./a/b.py", "a/b.py", true},
		{"a//b/./c.py", "a/b/c.py", true},
		{"a/../b.py", "b.py", true},
		{"a/b/../../c.py", "c.py", true},
		{"", "", false},
		{"/etc/passwd", "", false},
		{"//etc/passwd", "", false},
		{"..", "", false},
		{"../x.py", "", false},
		{"a/../../x.py", "", false},
		{"a/b/../../../x.py", "", false},
		{"a\x00b.py", "", false},
		{"a.py\x00", "", false},
		{"..foo/x.py", "..foo/x.py", true}, // a name starting with two dots is not a climb
	}
	// A backslash separates only where the OS's separator is one.
	if filepath.Separator == '\\' {
		cases = append(cases, []struct {
			in   string
			want string
			ok   bool
		}{
			{`a\b\c.py`, "a/b/c.py", true},
			{`.\a\b.py`, "a/b.py", true},
			{`..\x.py`, "", false},
			{`a\..\..\x.py`, "", false},
		}...)
	} else {
		cases = append(cases, []struct {
			in   string
			want string
			ok   bool
		}{
			{`a\b\c.py`, `a\b\c.py`, true},
			{`.\a\b.py`, `.\a\b.py`, true},
			{`..\x.py`, `..\x.py`, true}, // a file named "..\x.py"
			{`a\..\..\x.py`, `a\..\..\x.py`, true},
			{`configs\victim.yaml`, `configs\victim.yaml`, true},
			{`./configs\victim.yaml`, `configs\victim.yaml`, true},
		}...)
	}
	for _, c := range cases {
		got, ok := repofs.Clean(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("Clean(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestNew(t *testing.T) {
	if _, err := repofs.New(filepath.Join(t.TempDir(), "missing"), repofs.Options{}); err == nil {
		t.Errorf("New of a missing dir: no error")
	}
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f.txt": "x"})
	if _, err := repofs.New(filepath.Join(dir, "f.txt"), repofs.Options{}); err == nil {
		t.Errorf("New of a file: no error")
	}
	f := open(t, dir, repofs.Options{})
	if f.MaxFileSize() != repofs.DefaultMaxFileSize {
		t.Errorf("MaxFileSize = %d, want the default", f.MaxFileSize())
	}
	if !filepath.IsAbs(f.Root()) {
		t.Errorf("Root %q is not absolute", f.Root())
	}
	if f := open(t, dir, repofs.Options{MaxFileSize: -5}); f.MaxFileSize() != repofs.DefaultMaxFileSize {
		t.Errorf("negative MaxFileSize gives %d", f.MaxFileSize())
	}
	if f := open(t, dir, repofs.Options{MaxFileSize: 7}); f.MaxFileSize() != 7 {
		t.Errorf("MaxFileSize = %d, want 7", f.MaxFileSize())
	}
}

func TestReadAndStat(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a/ok.py":     "print('ok')\n",
		"a/exact.py":  "0123456789",
		"a/over.py":   "0123456789A",
		"a/bin.py":    "x = 1\x00\n",
		"a/latin1.py": "# caf\xe9\n",
		"a/empty.py":  "",
		"a/utf8.py":   "# café ✓\n",
		"a/sub/in.py": "x\n",
	})
	if err := os.Mkdir(filepath.Join(dir, "a", "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := open(t, dir, repofs.Options{MaxFileSize: 10})

	for _, p := range []string{"a/exact.py", "a/empty.py", "a/sub/in.py", "./a/exact.py", "a/sub/../exact.py"} {
		if _, err := f.Read(p); err != nil {
			t.Errorf("Read(%s): %v", p, err)
		}
		if err := f.Stat(p); err != nil || !f.IsFile(p) {
			t.Errorf("Stat(%s): %v", p, err)
		}
	}
	data, err := f.Read("a/exact.py")
	if err != nil || string(data) != "0123456789" {
		t.Errorf("Read(a/exact.py) = %q, %v", data, err)
	}

	errCases := []struct {
		path string
		want error
	}{
		{"a/over.py", repofs.ErrTooLarge},
		{"a/bin.py", repofs.ErrBinary},
		{"a/latin1.py", repofs.ErrNotUTF8},
		{"a/missing.py", repofs.ErrNotExist},
		{"a/ok.py/x.py", repofs.ErrNotExist}, // a file used as a directory
		{"nope/x.py", repofs.ErrNotExist},
		{"a/adir", repofs.ErrNotRegular},
		{"../x.py", repofs.ErrOutsideRoot},
		{"/etc/passwd", repofs.ErrOutsideRoot},
		{"a/../../x.py", repofs.ErrOutsideRoot},
		{"a\x00.py", repofs.ErrOutsideRoot},
	}
	for _, c := range errCases {
		_, err := f.Read(c.path)
		if !errors.Is(err, c.want) {
			t.Errorf("Read(%q) = %v, want %v", c.path, err, c.want)
		}
		var pe *repofs.PathError
		if !errors.As(err, &pe) || pe.Path == "" {
			t.Errorf("Read(%q) error %v is not a *PathError with a path", c.path, err)
		} else if !strings.Contains(err.Error(), pe.Path) {
			t.Errorf("Read(%q) error %q does not name the path", c.path, err)
		}
	}
	// Stat checks existence and confinement but not content.
	for _, p := range []string{"a/over.py", "a/bin.py", "a/latin1.py"} {
		if err := f.Stat(p); err != nil {
			t.Errorf("Stat(%s) = %v, want nil", p, err)
		}
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{"a/missing.py", repofs.ErrNotExist},
		{"a/adir", repofs.ErrNotRegular},
		{"../x.py", repofs.ErrOutsideRoot},
		{"/etc/passwd", repofs.ErrOutsideRoot},
	} {
		if err := f.Stat(c.path); !errors.Is(err, c.want) {
			t.Errorf("Stat(%q) = %v, want %v", c.path, err, c.want)
		}
		if f.IsFile(c.path) {
			t.Errorf("IsFile(%q) = true", c.path)
		}
	}
	// The too-large error states the limit.
	_, err = f.Read("a/over.py")
	if err == nil || !strings.Contains(err.Error(), "10") {
		t.Errorf("too-large error %v does not state the limit", err)
	}
	// A file that grows after its first check is still capped.
	if err := os.WriteFile(filepath.Join(dir, "a", "exact.py"), []byte(strings.Repeat("x", 1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Read("a/exact.py"); !errors.Is(err, repofs.ErrTooLarge) {
		t.Errorf("Read of a grown file = %v, want ErrTooLarge", err)
	}
}

func TestSymlinks(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret.py": "secret\n", "d/x.py": "x\n"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"real/mod.py": "x = 1\n", "real/app.py": "y\n"})
	link(t, dir, "inside.py", "real/mod.py")
	link(t, dir, "real/rel_up.py", "../real/mod.py")
	link(t, dir, "abs_inside.py", filepath.Join(dir, "real", "mod.py"))
	link(t, dir, "out.py", filepath.Join(outside, "secret.py"))
	link(t, dir, "out_rel.py", "../"+filepath.Base(outside)+"/secret.py")
	link(t, dir, "outdir", filepath.Join(outside, "d"))
	link(t, dir, "loop_a.py", "loop_b.py")
	link(t, dir, "loop_b.py", "loop_a.py")
	link(t, dir, "self.py", "self.py")
	link(t, dir, "dangling.py", "nowhere.py")
	link(t, dir, "dirlink", "real")
	link(t, dir, "real/loopdir", "..")
	f := open(t, dir, repofs.Options{})

	for _, p := range []string{"inside.py", "real/rel_up.py", "abs_inside.py", "dirlink/mod.py", "real/loopdir/real/loopdir/real/mod.py"} {
		data, err := f.Read(p)
		if err != nil || string(data) != "x = 1\n" {
			t.Errorf("Read(%s) = %q, %v", p, data, err)
		}
	}
	for _, c := range []struct {
		path string
		want error
	}{
		{"out.py", repofs.ErrOutsideRoot},
		{"outdir/x.py", repofs.ErrOutsideRoot},
		{"loop_a.py", repofs.ErrSymlinkLoop},
		{"self.py", repofs.ErrSymlinkLoop},
		{"dangling.py", repofs.ErrNotExist},
		{"dirlink", repofs.ErrNotRegular},
	} {
		if _, err := f.Read(c.path); !errors.Is(err, c.want) {
			t.Errorf("Read(%s) = %v, want %v", c.path, err, c.want)
		}
		if err := f.Stat(c.path); !errors.Is(err, c.want) {
			t.Errorf("Stat(%s) = %v, want %v", c.path, err, c.want)
		}
	}
	// out_rel.py climbs out by a relative link; whether or not the
	// temporary directories are siblings, it is never read.
	if data, err := f.Read("out_rel.py"); err == nil {
		t.Errorf("Read(out_rel.py) = %q: read outside the root", data)
	}
}

func TestRootIsSymlink(t *testing.T) {
	realDir := t.TempDir()
	writeTree(t, realDir, map[string]string{
		"resources_servers/a/app.py":         "x\n",
		"resources_servers/a/configs/a.yaml": "a: 1\n",
	})
	linkDir := t.TempDir()
	rootLink := filepath.Join(linkDir, "repo")
	if err := os.Symlink(realDir, rootLink); err != nil {
		t.Fatal(err)
	}
	f := open(t, rootLink, repofs.Options{})
	realResolved, err := filepath.EvalSymlinks(realDir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Root() != realResolved {
		t.Errorf("Root = %q, want %q", f.Root(), realResolved)
	}
	if _, err := f.Read("resources_servers/a/app.py"); err != nil {
		t.Errorf("Read through a linked root: %v", err)
	}
	l := f.Walk()
	if !equal(l.AppPy, []string{"resources_servers/a/app.py"}) || !equal(l.YAML, []string{"resources_servers/a/configs/a.yaml"}) {
		t.Errorf("Walk through a linked root = %+v", l)
	}
	// A relative root works too.
	t.Chdir(linkDir)
	f2 := open(t, "repo", repofs.Options{})
	if _, err := f2.Read("resources_servers/a/app.py"); err != nil {
		t.Errorf("Read through a relative linked root: %v", err)
	}
}

func TestOverlay(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a/app.py":      "disk\n",
		"a/config.yaml": "disk: 1\n",
	})
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"o.py": "outside\n"})
	link(t, dir, "a/linked.py", filepath.Join(outside, "o.py"))
	f := open(t, dir, repofs.Options{MaxFileSize: 20, Overlay: map[string][]byte{
		"a/app.py":     []byte("overlay\n"),
		"./b/new.yaml": []byte("new: 1\n"),
		"c/app.py":     []byte("new app\n"),
		"a/big.py":     []byte(strings.Repeat("x", 21)),
		"a/bin.py":     []byte("\x00"),
		"../escape.py": []byte("no\n"),
		"/abs.py":      []byte("no\n"),
		"a/linked.py":  []byte("overlay wins\n"),
		"w/win.yaml":   []byte("w: 1\n"),
	}})
	for p, want := range map[string]string{
		"a/app.py":    "overlay\n",
		"b/new.yaml":  "new: 1\n",
		"c/app.py":    "new app\n",
		"a/linked.py": "overlay wins\n",
		"w/win.yaml":  "w: 1\n",
	} {
		data, err := f.Read(p)
		if err != nil || string(data) != want {
			t.Errorf("Read(%s) = %q, %v; want %q", p, data, err, want)
		}
		if err := f.Stat(p); err != nil {
			t.Errorf("Stat(%s) = %v", p, err)
		}
	}
	if _, err := f.Read("a/big.py"); !errors.Is(err, repofs.ErrTooLarge) {
		t.Errorf("overlay over the limit: %v", err)
	}
	if _, err := f.Read("a/bin.py"); !errors.Is(err, repofs.ErrBinary) {
		t.Errorf("binary overlay: %v", err)
	}
	if _, err := f.Read("../escape.py"); !errors.Is(err, repofs.ErrOutsideRoot) {
		t.Errorf("overlay outside the root: %v", err)
	}
	l := f.Walk()
	if want := []string{"a/app.py", "c/app.py"}; !equal(l.AppPy, want) {
		t.Errorf("AppPy = %v, want %v", l.AppPy, want)
	}
	if want := []string{"a/config.yaml", "b/new.yaml", "w/win.yaml"}; !equal(l.YAML, want) {
		t.Errorf("YAML = %v, want %v", l.YAML, want)
	}
}

// The walk leaves out hidden and dependency directories; an overlay buffer
// for a file in one of them should not bring it in either, or the result
// would depend on which files an editor has open.
func TestOverlayInSkippedDirNotListed(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		".github/workflows/ci.yml": "on: push\n",
		"node_modules/x/app.py":    "x\n",
	})
	f := open(t, dir, repofs.Options{Overlay: map[string][]byte{
		".github/workflows/ci.yml": []byte("on: pull_request\n"),
		"node_modules/x/app.py":    []byte("y\n"),
		"a/__pycache__/app.py":     []byte("z\n"),
	}})
	l := f.Walk()
	if len(l.YAML) != 0 || len(l.AppPy) != 0 {
		t.Errorf("Walk lists overlay files in skipped directories: YAML %v, AppPy %v", l.YAML, l.AppPy)
	}
}

func TestWalk(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"app.py": "out\n", "out.yaml": "o: 1\n"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"z.yaml":                                 "z: 1\n",
		"a.yml":                                  "a: 1\n",
		"resources_servers/b/app.py":             "b\n",
		"resources_servers/b/configs/b.yaml":     "b: 1\n",
		"resources_servers/a/app.py":             "a\n",
		"resources_servers/a/configs/a.yml":      "a: 1\n",
		"resources_servers/a/notapp.py":          "x\n",
		"resources_servers/a/app.pyc":            "x\n",
		"resources_servers/a/data.json":          "{}\n",
		"resources_servers/a/x.yaml.bak":         "x\n",
		"deep/er/still/app.py":                   "d\n",
		".hidden/app.py":                         "h\n",
		".hidden/h.yaml":                         "h: 1\n",
		"resources_servers/a/.venv/app.py":       "v\n",
		"node_modules/pkg/app.py":                "n\n",
		"node_modules/pkg/p.yaml":                "n: 1\n",
		"resources_servers/a/__pycache__/app.py": "c\n",
		"venv/lib/app.py":                        "v\n",
		"lib/site-packages/pkg/app.py":           "s\n",
		"lib/site-packages/pkg/s.yaml":           "s: 1\n",
	})
	if err := os.MkdirAll(filepath.Join(dir, "dir.yaml"), 0o755); err != nil { // a directory named like a config
		t.Fatal(err)
	}
	link(t, dir, "resources_servers/a/loop", "..")
	link(t, dir, "resources_servers/a/rootloop", "../../")
	link(t, dir, "outdir", outside)
	link(t, dir, "linked.yaml", "z.yaml")
	link(t, dir, "resources_servers/c/app.py", "../a/app.py")
	link(t, dir, "dangling.yaml", "nowhere.yaml")

	f := open(t, dir, repofs.Options{})
	var l repofs.Listing
	done := make(chan struct{})
	go func() { l = f.Walk(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Walk did not finish with directory links")
	}
	wantYAML := []string{
		"a.yml",
		"dangling.yaml",
		"linked.yaml",
		"resources_servers/a/configs/a.yml",
		"resources_servers/b/configs/b.yaml",
		"z.yaml",
	}
	wantApp := []string{
		"deep/er/still/app.py",
		"resources_servers/a/app.py",
		"resources_servers/b/app.py",
		"resources_servers/c/app.py",
	}
	if !equal(l.YAML, wantYAML) {
		t.Errorf("YAML = %v\nwant %v", l.YAML, wantYAML)
	}
	if !equal(l.AppPy, wantApp) {
		t.Errorf("AppPy = %v\nwant %v", l.AppPy, wantApp)
	}
	if len(l.Problems) != 0 {
		t.Errorf("Problems = %v", l.Problems)
	}
	// Files in linked directories can still be read by path when they stay
	// inside the root.
	if _, err := f.Read("resources_servers/a/loop/a/app.py"); err != nil {
		t.Errorf("Read through an inside directory link: %v", err)
	}
	if _, err := f.Read("outdir/app.py"); !errors.Is(err, repofs.ErrOutsideRoot) {
		t.Errorf("Read through an outside directory link: %v", err)
	}
}

// A root whose own name starts with a dot is still walked.
func TestWalkHiddenRootName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".repo")
	writeTree(t, dir, map[string]string{"resources_servers/a/app.py": "a\n", "c.yaml": "c: 1\n"})
	l := open(t, dir, repofs.Options{}).Walk()
	if !equal(l.AppPy, []string{"resources_servers/a/app.py"}) || !equal(l.YAML, []string{"c.yaml"}) {
		t.Errorf("Walk of a dot-named root = %+v", l)
	}
}

func TestStatConcurrent(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 50; i++ {
		files["m"+strconv.Itoa(i)+".py"] = "x\n"
	}
	writeTree(t, dir, files)
	f := open(t, dir, repofs.Options{})
	done := make(chan bool)
	for g := 0; g < 8; g++ {
		go func() {
			ok := true
			for i := 0; i < 50; i++ {
				p := "m" + strconv.Itoa(i) + ".py"
				if !f.IsFile(p) {
					ok = false
				}
				if _, err := f.Read(p); err != nil {
					ok = false
				}
				if f.IsFile("missing" + strconv.Itoa(i) + ".py") {
					ok = false
				}
			}
			done <- ok
		}()
	}
	for g := 0; g < 8; g++ {
		if !<-done {
			t.Errorf("a concurrent reader got a wrong answer")
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// After KeepSums, Read keeps what it saw of each file of the root it read:
// the opened file's stat and the hash of what it returned; not for an
// overlay, a file it refused, or a read before KeepSums.
func TestKeepSums(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "x = 1\n", "b.py": "y = 2\n", "bin.py": "\x00"})
	f := open(t, dir, repofs.Options{Overlay: map[string][]byte{"o.py": []byte("z = 3\n")}})
	if _, err := f.Read("b.py"); err != nil {
		t.Fatal(err)
	}
	f.KeepSums()
	for _, p := range []string{"a.py", "o.py", "bin.py"} {
		f.Read(p)
	}
	rs, ok := f.Sum("./a.py")
	st, err := os.Stat(filepath.Join(dir, "a.py"))
	if err != nil {
		t.Fatal(err)
	}
	if !ok || rs.Sum != sha256.Sum256([]byte("x = 1\n")) || rs.Size != st.Size() || rs.MTime != st.ModTime().UnixNano() || rs.Ino == 0 {
		t.Fatalf("Sum(a.py) = %+v, %v; want its hash and stat %d %d", rs, ok, st.Size(), st.ModTime().UnixNano())
	}
	for _, p := range []string{"b.py", "o.py", "bin.py", "missing.py"} {
		if _, ok := f.Sum(p); ok {
			t.Errorf("Sum(%s) kept", p)
		}
	}
}

// IsDir answers as ListDir of the parent lists subdirectories: real
// directories, not links to them, in a parent inside the root, and the
// directories of the overlay's files; Forget drops the answers.
func TestIsDir(t *testing.T) {
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"d/x.py": "x\n"})
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"servers/math/app.py": "x\n", "servers/file.txt": "t\n"})
	link(t, dir, "servers/dirlink", "math")
	link(t, dir, "linked", "servers")
	link(t, dir, "out", outside)
	f := open(t, dir, repofs.Options{})
	f.SetOverlay("servers/new/app.py", []byte("y\n"))
	for _, p := range []string{"servers", "servers/math", "servers/dirlink", "servers/file.txt", "servers/none",
		"linked/math", "out/d", "servers/new", "servers/math/app.py", "../x", "."} {
		dirs, _ := f.ListDir(path.Dir(p))
		_, want := slices.BinarySearch(dirs, path.Base(p))
		if p == "." || p == "../x" {
			want = false
		}
		if got := f.IsDir(p); got != want {
			t.Errorf("IsDir(%s) = %v, ListDir of its parent: %v", p, got, want)
		}
	}
	if !f.IsDir("servers/math") || !f.IsDir("linked/math") || f.IsDir("out/d") || f.IsDir("servers/dirlink") || !f.IsDir("servers/new") {
		t.Fatal("IsDir")
	}
	if f.IsDir("servers/later") {
		t.Fatal("IsDir of no directory")
	}
	if err := os.Mkdir(filepath.Join(dir, "servers", "later"), 0o755); err != nil {
		t.Fatal(err)
	}
	if f.IsDir("servers/later") {
		t.Fatal("kept: not yet forgotten")
	}
	f.Forget("servers/later")
	if !f.IsDir("servers/later") {
		t.Fatal("IsDir after Forget")
	}
}

// Known answers Stat without looking, unless the FS already has an answer;
// Forget drops it.
func TestKnown(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.py": "a\n", "b.py": "b\n"})
	f := open(t, dir, repofs.Options{})
	if f.Stat("b.py") != nil {
		t.Fatal("Stat(b.py)")
	}
	f.Known("gone.py", true) // told: trusted without a look
	f.Known("a.py", false)
	f.Known("b.py", false) // already answered: stays
	f.Known("../out.py", true)
	if f.Stat("gone.py") != nil || !errors.Is(f.Stat("a.py"), repofs.ErrNotExist) || f.Stat("b.py") != nil {
		t.Fatalf("Stat after Known: %v %v %v", f.Stat("gone.py"), f.Stat("a.py"), f.Stat("b.py"))
	}
	if !errors.Is(f.Stat("../out.py"), repofs.ErrOutsideRoot) {
		t.Fatal("Known outside the root")
	}
	f.Forget("a.py")
	if f.Stat("a.py") != nil || !errors.Is(f.Stat("gone.py"), repofs.ErrNotExist) {
		t.Fatal("Stat after Forget")
	}
}
