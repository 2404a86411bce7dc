package contract

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gymlint/gymlint/internal/repofs"
)

// The prefilter asks for each name where a fact needs it: a def, a class,
// a binding of ServerRef, or anywhere.
func TestMayHoldFactsAsksWhere(t *testing.T) {
	for _, c := range []struct {
		src  string
		want bool
	}{
		{"def " + RefusalMethod + "(self):\n    return None\n", true},
		{"class S:\n    async def " + CloseMethod + "(self, request):\n        pass\n", true},
		// White space, a continuation and a comment between keyword and
		// name: tree-sitter takes them all.
		{"def  \\\n    " + LostSessionFunc + "():\n    pass\n", true},
		{"def # a comment\n" + LostSessionFunc + "():\n    pass\n", true},
		{"class\t" + SessionLostErrorClass + "(Exception):\n    pass\n", true},
		{"class ModelServerRef(BaseModel):\n    pass\n", true},
		{ServerRefUnion + " = Union[A, B]\n", true},
		{ServerRefUnion + ": TypeAlias = Union[A, B]\n", true},
		{"x = (" + ServerRefUnion + " # why\n := make())\n", true},
		{"if getattr(server, \"" + RayEnabledAttr + "\", False):\n    pass\n", true},
		{"from nemo_gym.base_resources_server import " + ReservedMCPToolNamesBinding + "\n", true},
		// Uses, calls, imports and look-alikes give no fact.
		{"from nemo_gym.config_types import " + ServerRefUnion + "\n\nref: " + ServerRefUnion + "\nrefs = [" + ServerRefUnion + "]\n", false},
		{"class ServerRefs:\n    pass\n", false},
		{"server." + RefusalMethod + "()\n", false},
		{"undef " + RefusalMethod + "\n", false},
		{"define = " + CloseMethod + "\n", false},
		{"raise " + SessionLostErrorClass + "()\n", false},
		{"subclass " + SessionLostErrorClass + "\n", false},
		{"from nemo_gym.base_resources_server import " + MultiRewardResponseClass + "\n", false},
		{"# def\n", false},
		{"", false},
	} {
		if got := mayHoldFacts([]byte(c.src)); got != c.want {
			t.Errorf("mayHoldFacts = %v, want %v, of:\n%s", got, c.want, c.src)
		}
	}
}

// A member of the ServerRef union may be named anything: a module that
// mentions ServerRef and defines one is parsed in the second pass; one
// that only imports ServerRef is not parsed at all.
func TestRefUnionMembersSecondPass(t *testing.T) {
	fw := detect(t, map[string]string{
		"nemo_gym/__init__.py": "",
		"nemo_gym/refs.py": "from typing import Literal, Union\n\nfrom nemo_gym.models import JudgeRef\n\n\n" +
			"class ModelServerRef:\n    type: Literal[\"responses_api_models\"]\n    name: str\n\n\n" +
			ServerRefUnion + " = Union[ModelServerRef, JudgeRef]\n",
		// JudgeRef's module mentions ServerRef in a docstring only: the
		// first pass does not parse it, the second does.
		"nemo_gym/models.py": "\"\"\"Models of a ServerRef.\"\"\"\nfrom typing import Literal\n\n\n" +
			"class JudgeRef:\n    type: Literal[\"judges\"]\n    name: str\n",
		"nemo_gym/users.py": "from nemo_gym.refs import " + ServerRefUnion + "\n\n\ndef route(ref: " + ServerRefUnion + "):\n    return ref\n",
	}, Options{})
	if want := []string{"judges", "responses_api_models"}; !slices.Equal(fw.RefTypes, want) {
		t.Errorf("RefTypes %v, want %v", fw.RefTypes, want)
	}
	// refs.py and models.py; users.py only imports and uses the union.
	if fw.Modules != 2 {
		t.Errorf("%d modules parsed, want 2", fw.Modules)
	}
}

// plainPrefilter is the prefilter before it asked where: any of the names
// anywhere in the text.
func plainPrefilter(src []byte) bool {
	var all [][]byte
	for _, n := range defNames {
		all = append(all, []byte(n))
	}
	for _, n := range classPrefixes {
		all = append(all, []byte(n))
	}
	all = append(all, words...)
	all = append(all, []byte(ServerRefUnion))
	for _, n := range all {
		if bytes.Contains(src, n) {
			return true
		}
	}
	return false
}

// The prefilter is sound: on every framework of the repository's fixtures,
// the facts, the modules they are found in and the reference types are
// those of the prefilter that asks for the names anywhere.
func TestPrefilterSameFactsOnFixtures(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() && d.Name() == DefaultPackage && p != filepath.Join(root, DefaultPackage) {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("%d framework fixtures found", len(dirs))
	}
	for _, dir := range dirs {
		fsys, err := repofs.New(filepath.Dir(dir), repofs.Options{})
		if err != nil {
			t.Fatal(err)
		}
		now := Detect(Options{FS: fsys})
		holdsFacts = plainPrefilter
		before := Detect(Options{FS: fsys})
		holdsFacts = mayHoldFacts
		rel, _ := filepath.Rel(root, dir)
		if !maps.Equal(now.Facts, before.Facts) {
			t.Errorf("%s: facts %v, asking anywhere %v", rel, now.Facts, before.Facts)
		}
		if !maps.Equal(now.FuncModules, before.FuncModules) || !slices.Equal(now.RefTypes, before.RefTypes) ||
			!slices.Equal(now.Problems, before.Problems) {
			t.Errorf("%s: %v %v %v, asking anywhere %v %v %v", rel, now.FuncModules, now.RefTypes, now.Problems,
				before.FuncModules, before.RefTypes, before.Problems)
		}
		if now.Modules > before.Modules {
			t.Errorf("%s: %d modules parsed, %d asking anywhere", rel, now.Modules, before.Modules)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("not the repository's root: %v", err)
	}
}
