package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestHostileMemoryBound: a repository whose scan needs more memory than
// --max-memory allows ends with exit 2 and a message saying so, within the
// bound (the harness checks the peak), instead of growing until the kernel
// kills it; without the flag the same scan finishes.
func TestHostileMemoryBound(t *testing.T) {
	if raceBuild {
		// The binary stopped within 60 ms peaked at 65 MB under -race
		// (37-40 MB without it), over a third of a free run's peak.
		t.Skip("measures the memory of a stopped scan, which the race detector's own takes over")
	}
	files := map[string]string{}
	var body strings.Builder
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&body, "    def m%d(self, x):\n        return [x + %d for _ in range(3)] or {\"k\": (x, %d)}\n\n", i, i, i)
	}
	for s := 0; s < 60; s++ {
		name := fmt.Sprintf("s%02d", s)
		files["resources_servers/"+name+"/app.py"] = "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\nclass Big(SimpleResourcesServer):\n" + body.String()
		files["resources_servers/"+name+"/configs/c.yaml"] = name + ":\n  resources_servers:\n    " + name + ":\n      entrypoint: app.py\n"
	}
	dir := hostileRepo(t, files)
	// Both runs cold: a warm one reads the first's findings from the cache
	// and needs next to no memory.
	free := bounded(t, dir, 2*time.Minute, 2000, "--quiet", "--no-cache", ".")
	if free.code != 1 {
		t.Fatalf("without a bound: exit %d, %s", free.code, free.stderr)
	}
	wantGood(t, free)
	limit := free.peakMB / 3
	o := bounded(t, dir, 2*time.Minute, free.peakMB, "--quiet", "--no-cache", fmt.Sprintf("--max-memory=%d", limit), ".")
	if o.code != 2 || !strings.Contains(o.stderr, fmt.Sprintf("over the bound of %d MB (--max-memory)", limit)) {
		t.Errorf("with --max-memory %d (the free run peaked at %d MB): exit %d, stderr %q", limit, free.peakMB, o.code, o.stderr)
	}
	if o.peakMB > limit+limit/2+20 {
		t.Errorf("stopped at a peak of %d MB, far over the bound of %d MB", o.peakMB, limit)
	}
}
