package gym

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/diag"
	"github.com/gymlint/gymlint/diag/core"
	"github.com/gymlint/gymlint/internal/repofs"
)

// ComposeCheck reports the include problems of the view's runs (GL015).
var ComposeCheck = Check{Rule: core.ConfigInclude, Run: runConfigInclude, ConfigsOnly: true}

type runsKey struct{}

// Runs returns the composed run of every config file of the view that is a
// Gym config (one that declares a server or an override, or lists
// config_paths), in the order of Configs. They are composed once for the
// configs the cache holds and shared by its views (a session's views of
// entrypoint groups included); callers must not modify them.
//
// The runs are not dependencies of a focused view: a session re-analyses an
// entrypoint when a config that names it changes, not when a file that
// composes it does.
func (v *View) Runs() []*configscan.Run {
	if v.skel == nil {
		return v.Shared(runsKey{}, func() any { return v.composeRuns() }).([]*configscan.Run)
	}
	runs, _ := v.runsAndServers()
	return runs
}

// RunServer is a server instance of a composed run (View.Runs).
type RunServer struct {
	Run      *configscan.Run
	Instance *configscan.Instance
	// Order sorts the servers of every run in the order of Runs, and of
	// their run's Servers.
	Order int
}

type runServersKey struct{}

// RunServersOf returns the servers of the composed runs that start the
// entrypoint at the root-relative path ep (their type, dir and entrypoint,
// cleaned), in the order of Runs, the runs Gym stops (Run.Fatal)
// included.
//
// Until something asks for every run (Runs), only the runs that can start
// ep are composed: those whose files mention its server directory's name
// (configscan.RunFiles, File.Mentions), each once. An edit of a Python
// file then composes the few runs of its entrypoints, not all of them.
func (v *View) RunServersOf(ep string) []RunServer {
	if v.skel == nil {
		runs := v.Shared(runsKey{}, func() any { return v.composeRuns() }).([]*configscan.Run)
		return v.Shared(runServersKey{}, func() any { return indexRunServers(runs) }).(map[string][]RunServer)[ep]
	}
	s := v.skel
	s.runsMu.Lock()
	all := s.all
	s.runsMu.Unlock()
	if all != nil && all.done.Load() {
		return all.servers[ep]
	}
	_, rest, _ := strings.Cut(ep, "/")
	name, _, _ := strings.Cut(rest, "/")
	if name == "" {
		_, servers := v.runsAndServers()
		return servers[ep]
	}
	opts := v.composeOptions()
	var out []RunServer
	for i, f := range runConfigs(v.Configs) {
		mentioned := false
		for _, rf := range configscan.RunFiles(f.Path, opts) {
			if rf.Mentions(name) {
				mentioned = true
				break
			}
		}
		if !mentioned {
			continue
		}
		r := v.runOf(f.Path, opts)
		for j := range r.Servers {
			if inst := &r.Servers[j]; serverEntrypoint(inst) == ep {
				out = append(out, RunServer{Run: r, Instance: inst, Order: serverOrder(i, j)})
			}
		}
	}
	return out
}

// runOf returns the run of the config at p, composed once per skeleton.
func (v *View) runOf(p string, opts configscan.ComposeOptions) *configscan.Run {
	return v.skel.one.get(p, func() any { return configscan.Compose(p, opts) }).(*configscan.Run)
}

// allRuns are every run of a skeleton and their servers by entrypoint.
type allRuns struct {
	once    sync.Once
	done    atomic.Bool
	runs    []*configscan.Run
	servers map[string][]RunServer
}

// runsAndServers returns the runs and their servers by entrypoint, made
// once per skeleton.
func (v *View) runsAndServers() ([]*configscan.Run, map[string][]RunServer) {
	s := v.skel
	s.runsMu.Lock()
	if s.all == nil {
		s.all = &allRuns{}
	}
	a := s.all
	s.runsMu.Unlock()
	a.once.Do(func() {
		a.runs = v.composeRuns()
		a.servers = indexRunServers(a.runs)
		a.done.Store(true)
	})
	return a.runs, a.servers
}

// serverEntrypoint is the root-relative path of the entrypoint a run's
// server starts.
func serverEntrypoint(inst *configscan.Instance) string {
	return path.Clean(inst.Type + "/" + inst.Dir + "/" + inst.Entrypoint)
}

// serverOrder is RunServer.Order of server j of run i (a run holds fewer
// than 2^20 servers: it is bounded by ComposeOptions.MaxNodes).
func serverOrder(i, j int) int { return i<<20 | j }

// indexRunServers indexes the servers of runs by the path of their
// entrypoint.
func indexRunServers(runs []*configscan.Run) map[string][]RunServer {
	out := map[string][]RunServer{}
	for i, r := range runs {
		for j := range r.Servers {
			inst := &r.Servers[j]
			ep := serverEntrypoint(inst)
			out[ep] = append(out[ep], RunServer{Run: r, Instance: inst, Order: serverOrder(i, j)})
		}
	}
	return out
}

func (v *View) composeOptions() configscan.ComposeOptions {
	opts := configscan.ComposeOptions{Load: v.loadConfig, ServerTypes: v.Options.ServerTypes}
	if v.FS != nil {
		opts.Source = v.FS.Read // for the fixes of GL015
	}
	return opts
}

// runConfigs are the configs that are runs (IsRunConfig), in order.
func runConfigs(configs []*configscan.File) []*configscan.File {
	var out []*configscan.File
	for _, f := range configs {
		if IsRunConfig(f) {
			out = append(out, f)
		}
	}
	return out
}

// composeRuns composes the runs, in parallel: each is composed on its own
// (the parses they load are the cache's, made once), and a run composed
// alone already (runOf) is taken as it is.
func (v *View) composeRuns() []*configscan.Run {
	opts := v.composeOptions()
	files := runConfigs(v.Configs)
	out := make([]*configscan.Run, len(files))
	parallel(len(files), v.cache.jobs, func(i int) {
		if v.skel != nil {
			out[i] = v.runOf(files[i].Path, opts)
		} else {
			out[i] = configscan.Compose(files[i].Path, opts)
		}
	})
	return out
}

// IsRunConfig reports whether f is a config Gym could be given: a single
// mapping document that declares a server or an override, or lists
// config_paths.
func IsRunConfig(f *configscan.File) bool {
	if f == nil || len(f.Docs) != 1 || f.Docs[0] == nil || f.Docs[0].Kind != configscan.MappingNode {
		return false
	}
	return len(f.Servers)+len(f.Overrides) > 0 || f.Docs[0].GetPair("config_paths") != nil
}

// loadConfig is the composition's Loader: the cache's parse of a config.
func (v *View) loadConfig(p string) (*configscan.File, error) {
	e := v.cache.config(p)
	if e.file != nil {
		return e.file, nil
	}
	_, err := v.FS.Read(p)
	if err == nil {
		err = errors.New("unreadable")
	}
	if errors.Is(err, repofs.ErrNotExist) || errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	msg, _ := v.cache.readError(p, err)
	return nil, errors.New(msg)
}

// includeKinds are the problems GL015 reports.
var includeKinds = map[string]bool{
	configscan.KindIncludeMissing: true,
	configscan.KindIncludeOutside: true,
	configscan.KindIncludeCycle:   true,
	configscan.KindIncludeBad:     true,
	configscan.KindComposeLimit:   true,
}

func runConfigInclude(v *View) []diag.Diagnostic {
	type key struct {
		file   string
		offset int
		kind   string
	}
	seen := map[key]bool{}
	var out []diag.Diagnostic
	for _, r := range v.Runs() {
		for _, p := range r.Problems {
			if !includeKinds[p.Kind] || p.Origin == nil {
				continue
			}
			// The root file of a run that cannot be read is GL002's.
			if p.Kind == configscan.KindIncludeBad && p.Origin.File == r.File && strings.HasPrefix(p.Message, "cannot read ") {
				continue
			}
			k := key{p.Origin.File, p.Pos.Offset, p.Kind}
			if seen[k] {
				continue
			}
			seen[k] = true
			pos := configPos(p.Pos)
			d := core.ConfigInclude.New(p.Origin.File, pos, pos, p.Message)
			d.Help = p.Help
			d.Fixes = ConfigFixes(p.Origin.File, p.Fix)
			d.Related = IncludeChain(p.Origin)
			out = append(out, d)
		}
	}
	return out
}

// IncludeChain returns the config_paths entries that brought o's file into
// its run, from the run's root file, as related positions. o is an origin
// with its chain: a ComposeProblem's, a Move's or Run.OriginOf's (a
// composed node carries only its file).
func IncludeChain(o *configscan.Origin) []diag.Related {
	if o == nil {
		return nil
	}
	var out []diag.Related
	for i, in := range o.Chain {
		next := o.File
		if i+1 < len(o.Chain) {
			next = o.Chain[i+1].File
		}
		pos := configPos(in.Pos)
		out = append(out, diag.Related{Path: in.File, Start: pos, End: pos, Message: "includes " + next})
	}
	return out
}
