package gym

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gymlint/gymlint/configscan"
	"github.com/gymlint/gymlint/internal/testtree"
)

// bigServer is a server module of about size bytes.
func bigServer(name string, size int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "from nemo_gym.base_resources_server import SimpleResourcesServer\n\n\nclass %s(SimpleResourcesServer):\n    async def verify(self, body):\n        return body\n", name)
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "\n\ndef f%d(a, b):\n    return [a + b * %d, {'k': a}]\n", i, i)
	}
	return b.String()
}

// TestParseMemoryBound checks that the parses in flight never hold more
// than the cache's parse memory together: with three workers and three
// modules of which two do not fit together, the modules parse one after
// another. (Without the bound, --jobs parses of 4 MB modules ran at once:
// eight of them took 6.2 GB with --jobs 8.)
func TestParseMemoryBound(t *testing.T) {
	const size = 64 << 10
	files := map[string]string{"nemo_gym/base_resources_server.py": "class SimpleResourcesServer:\n    pass\n"}
	for _, n := range []string{"a", "b", "c"} {
		files["resources_servers/"+n+"/app.py"] = bigServer(strings.ToUpper(n), size)
		files["resources_servers/"+n+"/configs/"+n+".yaml"] = n + ":\n  resources_servers:\n    " + n + ":\n      entrypoint: app.py\n"
	}
	root := testtree.New(t, files)
	c, err := NewCache(root, Options{Jobs: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	one := parseWeight(size, 1<<40)
	bound := one * 3 / 2 // one module's parse fits, two do not
	c.parseMem = newWeighted(bound)

	var mu sync.Mutex
	var over []string
	var entered atomic.Int32
	parseHook = func(hc *Cache, p string) {
		if hc != c || !strings.HasSuffix(p, "/app.py") {
			return
		}
		// The first parse waits until a second one has started too, or
		// is waiting for memory: without the bound the second starts.
		if entered.Add(1) == 1 {
			for entered.Load() < 2 && c.parseMem.waiting() == 0 {
				runtime.Gosched()
			}
		}
		if h := c.parseMem.held.Load(); h > bound {
			mu.Lock()
			over = append(over, fmt.Sprintf("%s: %d bytes of parse memory in flight, over the bound of %d", p, h, bound))
			mu.Unlock()
		}
	}
	defer func() { parseHook = nil }()

	v := c.View(nil)
	if len(v.Entrypoints) != 3 {
		t.Fatalf("%d entrypoints", len(v.Entrypoints))
	}
	for _, e := range v.Entrypoints {
		if e.Module == nil || e.Module.SyntaxError != nil {
			t.Errorf("%s was not parsed: %+v", e.Path, e.Module)
		}
	}
	for _, o := range over {
		t.Error(o)
	}
	if peak := c.parseMem.peak.Load(); peak > bound || peak < one {
		t.Errorf("peak parse memory in flight %d, want between %d and %d", peak, one, bound)
	}
}

// TestWeightedOrder checks that the parse memory semaphore serves
// requests in order: a large request waiting is not overtaken by small
// ones, and a request larger than the whole is served alone.
func TestWeightedOrder(t *testing.T) {
	w := newWeighted(10)
	w.acquire(6)
	got := make(chan string, 3)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); w.acquire(10); got <- "large"; w.release(10) }()
	for w.waiting() == 0 {
		runtime.Gosched()
	}
	go func() { defer wg.Done(); w.acquire(2); got <- "small"; w.release(2) }()
	for w.waiting() < 2 {
		runtime.Gosched()
	}
	w.release(6)
	if a, b := <-got, <-got; a != "large" || b != "small" {
		t.Errorf("served %s then %s, want large then small", a, b)
	}
	wg.Wait()
	w.mu.Lock()
	used := w.used
	w.mu.Unlock()
	if used != 0 || w.held.Load() != 0 || w.peak.Load() != 10 {
		t.Errorf("used %d, held %d, peak %d", used, w.held.Load(), w.peak.Load())
	}
}

// TestConfigValuesBounded checks that the configs a cache holds keep no
// more YAML values together than its budget: the configs past it are not
// parsed, and are reported (GL002), as a file over the size limit is.
// (Sixteen 4 MB configs held 7.7 GB.)
func TestConfigValuesBounded(t *testing.T) {
	const budget = 20000
	files := map[string]string{}
	for i := range 8 {
		n := fmt.Sprintf("s%d", i)
		files["resources_servers/"+n+"/app.py"] = bigServer(strings.ToUpper(n), 100)
		files["resources_servers/"+n+"/configs/"+n+".yaml"] = n + ":\n  resources_servers:\n    " + n + ":\n      entrypoint: app.py\n      blob: [" +
			strings.Repeat("1,", 3000) + "1]\n"
	}
	root := testtree.New(t, files)
	c, err := NewCache(root, Options{Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.yaml = configscan.NewBudget(budget)
	v := c.View(nil)
	total, parsed := 0, 0
	for _, f := range c.Configs() {
		total += f.Values()
		if len(f.Servers) == 1 {
			parsed++
		}
	}
	refused := 0
	for _, d := range v.Diagnostics() {
		if d.Code == "GL002" && strings.Contains(d.Message, "was not analysed: the scan's budget of 20000 YAML values ran out before it was read") {
			refused++
		}
	}
	if total > budget || parsed == 0 || parsed+refused != 8 {
		t.Errorf("the configs hold %d values (budget %d): %d parsed, %d reported not analysed", total, budget, parsed, refused)
	}
	// Forgetting a config gives its values back.
	used := c.yaml.Used()
	c.Changed("resources_servers/s0/configs/s0.yaml")
	if c.yaml.Used() >= used {
		t.Errorf("budget used %d before forgetting a config, %d after", used, c.yaml.Used())
	}
}
