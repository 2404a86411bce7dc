package diskcache

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
)

// BuildID identifies the gymlint binary that is running, for the keys of
// entries whose content depends on gymlint's code (every entry does): a
// different gymlint never reads another's entries. A binary built from a
// clean checkout is identified by its module version and VCS revision; any
// other (a modified checkout, go run, a test binary) also by its
// executable's path, size and modification time, so that a rebuild is a
// different gymlint.
var BuildID = sync.OnceValue(func() string {
	id := runtime.Version()
	clean := false
	if bi, ok := debug.ReadBuildInfo(); ok {
		id += ";" + bi.Main.Path + "@" + bi.Main.Version
		modified, revision := "", ""
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		id += ";" + revision
		clean = revision != "" && modified == "false" || bi.Main.Version != "" && bi.Main.Version != "(devel)"
	}
	if !clean {
		if exe, err := os.Executable(); err == nil {
			if st, err := os.Stat(exe); err == nil {
				id += ";" + exe + ";" + strconv.FormatInt(st.Size(), 10) + ";" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
			}
		}
	}
	return id
})
