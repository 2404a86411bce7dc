package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/gymlint/gymlint/contract"
	"github.com/gymlint/gymlint/engine"
	"github.com/gymlint/gymlint/internal/pathmatch"
	"github.com/gymlint/gymlint/settings"
)

// selectionFlags are the flags that choose the configuration, the rules
// and the files: --config, --select, --extend-select, --ignore, --exclude
// and --no-respect-gitignore. The check and `gymlint config` take them.
type selectionFlags struct {
	config                   string
	selects, extend, ignore  multiFlag
	exclude                  multiFlag
	noGitignore              bool
	selectGiven, configGiven bool
}

const selectorHelp = "codes (GL101), code prefixes (GL1), rule names, analyzer names or ALL; comma-separated, repeatable"

func addSelectionFlags(fs *flag.FlagSet) *selectionFlags {
	sf := &selectionFlags{}
	fs.Func("config", "read the configuration from this `FILE` (a .gymlint.yaml-style YAML file, or a pyproject.toml whose [tool.gymlint] is read), relative to the current directory, instead of the one at the root", func(s string) error {
		sf.config, sf.configGiven = s, true
		return nil
	})
	fs.Func("select", "run only these `RULES` instead of the configuration's selection (its enable and disable): "+selectorHelp, func(s string) error {
		sf.selectGiven = true
		return sf.selects.Set(s)
	})
	fs.Var(&sf.extend, "extend-select", "run these `RULES` too, even if the configuration disables them: "+selectorHelp)
	fs.Var(&sf.ignore, "ignore", "do not run these `RULES`, whatever selects them: "+selectorHelp)
	fs.Var(&sf.exclude, "exclude", "leave out the files and directories that match this root-relative `GLOB`, as the configuration's exclude does (repeatable; adds to it)")
	fs.BoolVar(&sf.noGitignore, "no-respect-gitignore", false, "also walk what the repository's .gitignore files ignore (by default it is not read as configs or server directories)")
	return sf
}

// load reads the configuration of root (the --config file, else the one
// found at root) and applies the flags to it. The error is a usage or
// configuration error, for exit status 2.
func (sf *selectionFlags) load(root string) (*settings.Settings, error) {
	var sel settings.Selection
	var err error
	if sf.selectGiven {
		if sel.Select, err = settings.ResolveSelectors("--select", sf.selects); err != nil {
			return nil, flagError{err}
		}
	}
	if len(sf.extend) > 0 {
		if sel.Extend, err = settings.ResolveSelectors("--extend-select", sf.extend); err != nil {
			return nil, flagError{err}
		}
	}
	if sf.selectGiven {
		sel.Named = settings.NamedRules(sf.selects)
	}
	sel.Named = append(sel.Named, settings.NamedRules(sf.extend)...)
	if len(sf.ignore) > 0 {
		if sel.Ignore, err = settings.ResolveSelectors("--ignore", sf.ignore); err != nil {
			return nil, flagError{err}
		}
	}
	for _, g := range sf.exclude {
		c := settings.CleanExclude(g)
		if msg := pathmatch.ValidGlob(c); msg != "" {
			return nil, flagError{fmt.Errorf("--exclude %q %s", g, msg)}
		}
		sel.Exclude = append(sel.Exclude, c)
	}
	var conf *settings.Settings
	if sf.configGiven {
		if sf.config == "" {
			return nil, flagError{fmt.Errorf("--config needs a file")}
		}
		conf, err = settings.LoadFile(sf.config, root)
	} else {
		conf, err = settings.Load(root)
	}
	if err != nil {
		return nil, fmt.Errorf("configuration error: %w", err)
	}
	return conf.With(sel), nil
}

// flagError is an error in a flag's value that load finds: a usage error.
type flagError struct{ error }

func (e flagError) Unwrap() error { return e.error }

// reportLoadError prints an error of load: a flag's bad value as a usage
// error of the command (fs), anything else (the configuration) as it is.
// It returns ExitError.
func reportLoadError(stderr io.Writer, fs *flag.FlagSet, err error) int {
	var fe flagError
	if errors.As(err, &fe) {
		return usageError(stderr, fs, "%v", fe.error)
	}
	fmt.Fprintf(stderr, "gymlint: %v\n", err)
	return ExitError
}

// openEngineWith is openEngine with the selection flags: it finds the root
// of path, reads the configuration the flags say and makes the engine.
func openEngineWith(fs *flag.FlagSet, path string, sf *selectionFlags, stderr io.Writer) (*target, *engine.Engine, bool) {
	t, err := findTarget("", []string{path}, false)
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
		return nil, nil, false
	}
	conf, err := sf.load(t.root)
	if err != nil {
		reportLoadError(stderr, fs, err)
		return nil, nil, false
	}
	e, err := engine.New(engine.Options{Root: t.root, Settings: conf, NoGitignore: sf.noGitignore, VirtualEnv: contract.VirtualEnvFromEnvironment()})
	if err != nil {
		fmt.Fprintf(stderr, "gymlint: %v\n", err)
		return nil, nil, false
	}
	return t, e, true
}
