package settings

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gymlint/gymlint/internal/testtree"
)

// Each table and file ruff and isort read known-first-party from, and
// their precedence.
func TestReadKnownFirstParty(t *testing.T) {
	const (
		ruffLint = "[tool.ruff.lint.isort]\nknown-first-party = [\"ruff_lint\"]\n"
		ruffOld  = "[tool.ruff.isort]\nknown-first-party = [\"ruff_old\"]\n"
		isort    = "[tool.isort]\nknown_first_party = [\"isort_own\"]\n"
	)
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"none", map[string]string{"README": "x"}, nil},
		{"pyproject without them", map[string]string{PyProject: "[project]\nname = \"x\"\n[tool.ruff.lint]\nselect = [\"I\"]\n"}, nil},
		{"tool.ruff.lint.isort", map[string]string{PyProject: ruffLint}, []string{"ruff_lint"}},
		{"tool.ruff.isort", map[string]string{PyProject: ruffOld}, []string{"ruff_old"}},
		{"tool.isort", map[string]string{PyProject: isort}, []string{"isort_own"}},
		{"tool.isort, a comma-separated string", map[string]string{PyProject: "[tool.isort]\nknown_first_party = \" a, b.c ,,\\nd \"\n"}, []string{"a", "b.c", "d"}},
		{"as given: dotted names and globs", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = [\"my_gym.servers\", \"plugin_*\", \" x \", \"\"]\n"}, []string{"my_gym.servers", "plugin_*", "x"}},
		{"lint.isort over isort", map[string]string{PyProject: ruffOld + ruffLint}, []string{"ruff_lint"}},
		{"lint.isort without the key: isort's", map[string]string{PyProject: ruffOld + "[tool.ruff.lint.isort]\ncombine-as-imports = true\n"}, []string{"ruff_old"}},
		{"an empty list is set", map[string]string{PyProject: ruffOld + "[tool.ruff.lint.isort]\nknown-first-party = []\n"}, nil},
		{"ruff over isort", map[string]string{PyProject: isort + ruffOld}, []string{"ruff_old"}},
		{"dotted keys", map[string]string{PyProject: "tool.ruff.lint.isort.known-first-party = [\"a\"]\n"}, []string{"a"}},
		{"inline tables", map[string]string{PyProject: "[tool]\nruff = {lint = {isort = {known-first-party = [\"a\"]}, select = [\"I\"]}}\n"}, []string{"a"}},
		{"quoted keys", map[string]string{PyProject: "[tool.\"ruff\".lint.'isort']\n\"known-first-party\" = ['a']\n"}, []string{"a"}},
		{"isort's dashes are not its key", map[string]string{PyProject: "[tool.isort]\nknown-first-party = [\"a\"]\n"}, nil},
		{"ruff.toml lint.isort", map[string]string{ruffTOML: "[lint.isort]\nknown-first-party = [\"r\"]\n"}, []string{"r"}},
		{"ruff.toml isort", map[string]string{ruffTOML: "[isort]\nknown-first-party = [\"r_old\"]\n"}, []string{"r_old"}},
		{"ruff.toml lint.isort over isort", map[string]string{ruffTOML: "[isort]\nknown-first-party = [\"r_old\"]\n[lint.isort]\nknown-first-party = [\"r\"]\n"}, []string{"r"}},
		{".ruff.toml", map[string]string{dotRuffTOML: "lint.isort.known-first-party = [\"dot\"]\n"}, []string{"dot"}},
		{".ruff.toml over ruff.toml over pyproject.toml", map[string]string{
			dotRuffTOML: "[lint.isort]\nknown-first-party = [\"dot\"]\n",
			ruffTOML:    "[lint.isort]\nknown-first-party = [\"r\"]\n",
			PyProject:   ruffLint,
		}, []string{"dot"}},
		{"ruff.toml over pyproject.toml", map[string]string{ruffTOML: "[isort]\nknown-first-party = [\"r_old\"]\n", PyProject: ruffLint + isort}, []string{"r_old"}},
		// Ruff reads the first of its files that exists, and no other:
		// pyproject.toml's [tool.ruff] is not ruff's configuration then,
		// but [tool.isort] is still isort's.
		{"ruff.toml without it: not pyproject's ruff", map[string]string{ruffTOML: "line-length = 100\n", PyProject: ruffLint}, nil},
		{"ruff.toml without it: isort's", map[string]string{ruffTOML: "line-length = 100\n", PyProject: ruffLint + isort}, []string{"isort_own"}},
		{"ruff.toml has no tool table", map[string]string{ruffTOML: ruffLint}, nil},
		{"pyproject.toml has no lint table", map[string]string{PyProject: "[lint.isort]\nknown-first-party = [\"a\"]\n"}, nil},
		{"beside .gymlint.yaml", map[string]string{FileName: "disable: [GL205]\n", PyProject: isort}, []string{"isort_own"}},
		{"beside [tool.gymlint]", map[string]string{PyProject: "[tool.gymlint]\ndisable = [\"GL205\"]\n" + ruffLint}, []string{"ruff_lint"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := testtree.New(t, c.files)
			if got := ReadKnownFirstParty(root); !reflect.DeepEqual(got, c.want) {
				t.Errorf("ReadKnownFirstParty = %q, want %q", got, c.want)
			}
			s, err := loadSoon(t, root)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if !reflect.DeepEqual(s.KnownFirstParty, c.want) {
				t.Errorf("Load: KnownFirstParty = %q, want %q", s.KnownFirstParty, c.want)
			}
		})
	}
}

// What is wrong in the other tools' tables is theirs: gymlint reads no
// setting from there, and Load neither fails nor says anything (it has no
// Unread for them), also when gymlint's own configuration is in the same
// file. What is right elsewhere still counts.
func TestReadKnownFirstPartyIgnoresBadValues(t *testing.T) {
	const gymlint = "[tool.gymlint]\ndisable = [\"GL205\"]\n"
	for _, c := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"not a list", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = \"a\"\n"}, nil},
		{"a number", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = 3\n"}, nil},
		{"a table", map[string]string{PyProject: "[tool.ruff.lint.isort.known-first-party]\na = 1\n"}, nil},
		{"not only strings", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = [\"a\", 1]\n"}, nil},
		{"nested lists", map[string]string{PyProject: "[tool.isort]\nknown_first_party = [[\"a\"]]\n"}, nil},
		{"a bad value falls back to the next key", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = 3\n[tool.ruff.isort]\nknown-first-party = [\"old\"]\n"}, []string{"old"}},
		{"a bad ruff value falls back to isort's", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = {a = 1}\n[tool.isort]\nknown_first_party = \"i\"\n"}, []string{"i"}},
		{"a syntax error in the key", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = [\"a\",, ]\n"}, nil},
		{"the key twice", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = [\"a\"]\nknown-first-party = [\"b\"]\n"}, nil},
		{"an unreadable header", map[string]string{PyProject: "[tool.ruff.lint.isort\nknown-first-party = [\"a\"]\n"}, nil},
		{"a value left open", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = [\"a\",\n"}, nil},
		{"too deep", map[string]string{PyProject: "[tool.ruff.lint.isort]\nknown-first-party = " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n"}, nil},
		{"an error elsewhere is not read", map[string]string{PyProject: "[tool.black]\nx = = 1\n[tool.ruff.lint]\nselect = = 1\ny = 'unclosed\n[tool.ruff.lint.isort]\nknown-first-party = [\"a\"]\n"}, []string{"a"}},
		{"not UTF-8 elsewhere", map[string]string{PyProject: "[tool.black]\nx = \"\xff\"\n[tool.isort]\nknown_first_party = \"a\"\n"}, []string{"a"}},
		{"a bad ruff.toml", map[string]string{ruffTOML: "[lint.isort\n", PyProject: "[tool.isort]\nknown_first_party = [\"i\"]\n"}, []string{"i"}},
		{"a binary ruff.toml", map[string]string{ruffTOML: "\x00\x01\x02[", PyProject: "[tool.isort]\nknown_first_party = [\"i\"]\n"}, []string{"i"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, withGymlint := range []bool{false, true} {
				files := map[string]string{}
				for k, v := range c.files {
					if k == PyProject && withGymlint {
						v = gymlint + v
					}
					files[k] = v
				}
				root := testtree.New(t, files)
				if got := ReadKnownFirstParty(root); !reflect.DeepEqual(got, c.want) {
					t.Errorf("ReadKnownFirstParty = %q, want %q", got, c.want)
				}
				// An unreadable header or a value left open until the end
				// is an error of pyproject.toml's for gymlint, wherever it
				// is (it may hide [tool.gymlint]): reading the isort
				// setting adds no other.
				_, _, perr := ParseTOML(PyProject, []byte(files[PyProject]))
				s, err := loadSoon(t, root)
				if perr != nil {
					if err == nil || err.Error() != perr.Error() {
						t.Errorf("Load: %v, want gymlint's own error %v", err, perr)
					}
					continue
				}
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				if !reflect.DeepEqual(s.KnownFirstParty, c.want) || len(s.Unread) != 0 {
					t.Errorf("Load: %+v, want KnownFirstParty %q", s, c.want)
				}
				if withGymlint && (s.File != PyProject || len(s.Disable) != 1) {
					t.Errorf("Load: [tool.gymlint] not read: %+v", s)
				}
			}
		})
	}
}

// A ruff configuration file that is not a regular file in the root is not
// read (nor opened: a named pipe would block), and no error; ruff would
// still take it as its file, so pyproject.toml's [tool.ruff] is not read
// either, but isort's table is.
func TestReadKnownFirstPartyUnreadableFiles(t *testing.T) {
	const py = "[tool.ruff.lint.isort]\nknown-first-party = [\"ruff\"]\n[tool.isort]\nknown_first_party = [\"isort\"]\n"
	for _, c := range []struct {
		name string
		make func(t *testing.T, root string)
		want []string
	}{
		{"fifo .ruff.toml", func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, dotRuffTOML)) }, []string{"isort"}},
		{"directory ruff.toml", func(t *testing.T, root string) {
			if err := os.Mkdir(filepath.Join(root, ruffTOML), 0o755); err != nil {
				t.Fatal(err)
			}
		}, []string{"isort"}},
		{"ruff.toml out of the root", func(t *testing.T, root string) { symlink(t, "/etc/hostname", filepath.Join(root, ruffTOML)) }, []string{"isort"}},
		{"fifo pyproject.toml", func(t *testing.T, root string) {
			if err := os.Remove(filepath.Join(root, PyProject)); err != nil {
				t.Fatal(err)
			}
			mkfifo(t, filepath.Join(root, PyProject))
		}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := testtree.New(t, map[string]string{PyProject: py})
			c.make(t, root)
			done := make(chan []string, 1)
			go func() { done <- ReadKnownFirstParty(root) }()
			select {
			case got := <-done:
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("got %q, want %q", got, c.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("ReadKnownFirstParty blocked")
			}
		})
	}
}

// LoadFile (--config) reads gymlint's configuration from the file given,
// and the isort configuration from the root, as Load does.
func TestLoadFileReadsKnownFirstParty(t *testing.T) {
	root := testtree.New(t, map[string]string{
		PyProject:      "[tool.isort]\nknown_first_party = \"mine\"\n",
		"conf/gl.yaml": "disable: [GL205]\n",
		"conf/gl.toml": "[tool.gymlint]\ndisable = [\"GL205\"]\n[tool.isort]\nknown_first_party = \"not_the_root\"\n",
	})
	for _, f := range []string{"conf/gl.yaml", "conf/gl.toml"} {
		s, err := LoadFile(filepath.Join(root, f), root)
		if err != nil || len(s.Disable) != 1 || !reflect.DeepEqual(s.KnownFirstParty, []string{"mine"}) {
			t.Errorf("%s: %v %+v", f, err, s)
		}
	}
}
