package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gymlint/gymlint/engine"
)

// userExtraRoots are the extra roots the user names: each --extra-root
// (which must be a directory), then NEMO_GYM_EXTRA_ROOTS as the supervisor
// reads it (engine.SplitExtraRoots: entries that do not exist are skipped,
// as the supervisor skips them), all absolute from the working directory.
func userExtraRoots(flags []string) ([]string, error) {
	var out []string
	for _, d := range flags {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("--extra-root %s: %v", d, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("--extra-root %s: not a directory", d)
		}
		out = append(out, abs)
	}
	return append(out, engine.SplitExtraRoots(os.Getenv(engine.EnvExtraRoots))...), nil
}
