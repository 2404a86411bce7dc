package pyscan

import (
	"bufio"
	"bytes"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// repeated is unit repeated to size bytes.
func repeated(unit string, size int) []byte {
	return []byte(strings.Repeat(unit, size/len(unit)+1)[:size])
}

// steps returns how many steps a parse of src takes, and whether it
// finished, with p's budget.
func steps(p *Parser, src []byte) (int64, bool) {
	tree, m := p.parseTree(src, nil, nil)
	if tree != nil {
		tree.Close()
	}
	return m.steps, tree != nil
}

// stopped returns a module's ParseStop, failing the test when there is none.
func stopped(t *testing.T, m *Module) *ParseStop {
	t.Helper()
	if m.SyntaxError == nil || m.SyntaxError.Stopped == nil {
		t.Fatalf("%s: the parse was not stopped (syntax error %+v)", m.Path, m.SyntaxError)
	}
	return m.SyntaxError.Stopped
}

// checkSkipped checks what a module whose parse was stopped keeps: its
// text and lines, and nothing of a model.
func checkSkipped(t *testing.T, m *Module, src []byte) {
	t.Helper()
	if m.SyntaxError.Span != (Span{}) || len(m.Functions) != 0 || len(m.Body) != 0 || m.Size != len(src) {
		t.Errorf("a stopped module: %v %d functions %d statements, size %d", m.SyntaxError, len(m.Functions), len(m.Body), m.Size)
	}
	if string(m.Source()) != string(src) || m.Pos(100).Line != bytes.Count(src[:100], []byte("\n"))+1 {
		t.Errorf("a stopped module keeps its text and lines")
	}
}

// TestFileBudget checks that a file stops at its budget, after the same
// number of steps every time (its content decides, not the machine), and
// that the parser starts afresh on the next file.
func TestFileBudget(t *testing.T) {
	big := gymModule(2 << 20)
	small := []byte("import ray\nclass A(Base):\n    x = f(1)\n")
	fresh := parseSrc(t, string(small))
	fresh.Path, fresh.Name = "small.py", "small"

	// 2 MB of ordinary code take about 20,000 steps; this budget is 2,151.
	p := NewParser(Options{BaseSteps: 100, StepsPerKB: 1})
	defer p.Close()
	budget := p.FileBudget(len(big))
	if budget != 100+kb(len(big)) {
		t.Fatalf("budget %d", budget)
	}
	for round := 0; round < 3; round++ {
		m := p.Parse("big.py", big)
		stop := stopped(t, m)
		if stop.Reason != FileBudgetRanOut || stop.Steps != budget+1 || stop.Budget != budget {
			t.Fatalf("round %d: stop %+v, want the file budget of %d after %d steps", round, stop, budget, budget+1)
		}
		if !strings.Contains(m.SyntaxError.Message, "not analysed") {
			t.Errorf("message %q", m.SyntaxError.Message)
		}
		checkSkipped(t, m, big)
		// The cancelled parse must not resume on the next file.
		if m := p.Parse("small.py", small); !reflect.DeepEqual(m, fresh) {
			t.Fatalf("after a stop the parser returned %+v", m)
		}
	}

	// With the default budget the same file parses, with room to spare.
	d := NewParser(Options{})
	defer d.Close()
	n, ok := steps(d, big)
	if !ok || n*3 > d.FileBudget(len(big)) {
		t.Errorf("2 MB of ordinary code: %d steps of a budget of %d (finished: %v)", n, d.FileBudget(len(big)), ok)
	}
	if m := d.Parse("big.py", big); m.SyntaxError != nil {
		t.Errorf("default budget: %+v", m.SyntaxError)
	}

	// The budget has a cap, whatever the file's size: the memory of a
	// parse grows with its steps.
	if b := d.FileBudget(50 << 20); b != DefaultMaxFileSteps || d.FileBudget(1<<20) != DefaultBaseSteps+DefaultStepsPerKB*1024 {
		t.Errorf("the default budget of 50 MB is %d, want the cap %d", b, DefaultMaxFileSteps)
	}
	c := NewParser(Options{MaxSteps: 500})
	defer c.Close()
	if stop := stopped(t, c.Parse("big.py", big)); c.FileBudget(len(big)) != 500 || stop.Reason != FileBudgetRanOut || stop.Steps != 501 {
		t.Errorf("a budget capped at 500 steps: %+v", stop)
	}
}

// TestScanBudget checks a budget shared by several parses: they spend it
// in steps, the one that crosses it stops, and later ones do not start.
func TestScanBudget(t *testing.T) {
	src := gymModule(64 << 10)
	p := NewParser(Options{})
	defer p.Close()
	one, ok := steps(p, src)
	if again, _ := steps(p, src); !ok || again != one || one < 100 {
		t.Fatalf("a parse takes %d then %d steps (finished: %v)", one, again, ok)
	}
	b := NewBudget(3*one + one/2)
	for i := 0; i < 3; i++ {
		if m := p.ParseWithin("m.py", src, b); m.SyntaxError != nil {
			t.Fatalf("parse %d: %+v", i, m.SyntaxError)
		}
	}
	if b.Spent() != 3*one {
		t.Errorf("spent %d after three parses of %d steps", b.Spent(), one)
	}
	m := p.ParseWithin("m.py", src, b)
	if stop := stopped(t, m); stop.Reason != ScanBudgetRanOut || stop.Budget != b.Limit() || stop.Steps != one/2+1 {
		t.Errorf("the fourth parse: %+v, want it stopped by the scan budget after %d steps", stop, one/2+1)
	}
	checkSkipped(t, m, src)
	m = p.ParseWithin("m.py", src, b)
	if stop := stopped(t, m); stop.Reason != ScanBudgetRanOut || stop.Steps != 0 {
		t.Errorf("a parse after the budget ran out: %+v, want no step taken", stop)
	}
	// A parse without the scan's budget is not affected.
	if m := p.Parse("m.py", src); m.SyntaxError != nil {
		t.Errorf("an uncharged parse: %+v", m.SyntaxError)
	}
	// Incremental parses are charged too.
	b = NewBudget(one / 2)
	if m, r := p.ParseIncrementalWithin("m.py", src, nil, b); r != nil || stopped(t, m).Reason != ScanBudgetRanOut {
		t.Errorf("an incremental parse over the scan budget: %+v", m.SyntaxError)
	}
}

// TestScanBudgetShared checks that parsers on several goroutines share one
// budget: together they parse about as many files as it pays for.
func TestScanBudgetShared(t *testing.T) {
	src := gymModule(32 << 10)
	p := NewParser(Options{})
	one, _ := steps(p, src)
	p.Close()
	b := NewBudget(10 * one)
	var mu sync.Mutex
	done, refused := 0, 0
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := NewParser(Options{})
			defer p.Close()
			for i := 0; i < 6; i++ {
				m := p.ParseWithin("m.py", src, b)
				mu.Lock()
				switch {
				case m.SyntaxError == nil:
					done++
				case m.SyntaxError.Stopped != nil && m.SyntaxError.Stopped.Reason == ScanBudgetRanOut:
					refused++
				default:
					t.Errorf("unexpected %+v", m.SyntaxError)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// Parses in progress when the budget runs out stop too: up to one
	// per goroutine but the last.
	if done > 10 || done < 10-3 || done+refused != 24 {
		t.Errorf("%d parses finished and %d were refused, with a budget for 10", done, refused)
	}
	if b.Spent() < b.Limit() || b.Spent() > b.Limit()+4*one {
		t.Errorf("spent %d of %d", b.Spent(), b.Limit())
	}
}

// TestHardInputs parses files that are hard for tree-sitter and checks
// that each parse ends soon, and how. The first three, left alone, take
// minutes (their cost grows with the square of their size: 64 KB of dots
// take 4 s, 256 KB more than a minute); under the old 10 s time limit each
// took the whole 10 s, as the line continuations did, and on a loaded
// machine so could the last three, which finish in well under a second of
// processor time.
func TestHardInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds")
	}
	for _, tc := range []struct {
		name string
		src  []byte
		want StopReason // 0: finishes, with a syntax error
	}{
		// Each token is folded into one ever wider ERROR node: few steps,
		// each dearer than the last.
		{"dots", repeated(".", 128<<10), ProcessorTimeRanOut},
		{"hex prefixes", repeated("0x ", 128<<10), ProcessorTimeRanOut},
		// At 128 KB it takes about as much time as its steps allow: 256 KB
		// take four times that.
		{"global", repeated("global ", 256<<10), ProcessorTimeRanOut},
		// The lexer scans the rest of the file again for each token: its
		// reads are the steps.
		{"line continuations", repeated("\\\n", 128<<10), FileBudgetRanOut},
		// Dear, but their steps keep pace: they finish.
		{"unterminated strings", repeated("\"abc\n", 64<<10), 0},
		{"open parens", repeated("x = (\n", 64<<10), 0},
		{"decorators", repeated("@", 64<<10), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewParser(Options{})
			defer p.Close()
			scan := NewBudget(1 << 40)
			size := len(tc.src)
			start := time.Now()
			m := p.ParseWithin("hard.py", tc.src, scan)
			took := time.Since(start)
			if took > 30*time.Second {
				t.Errorf("took %v", took)
			}
			if m.SyntaxError == nil {
				t.Fatal("no syntax error")
			}
			stop := m.SyntaxError.Stopped
			t.Logf("%v, %d steps: %s", took.Round(time.Millisecond), scan.Spent(), m.SyntaxError.Message)
			switch {
			case tc.want == 0 && stop != nil:
				t.Errorf("stopped: %+v", stop)
			case tc.want == 0:
			case stop == nil || stop.Reason != tc.want:
				t.Errorf("stop %+v, want reason %d", stop, tc.want)
			case tc.want == FileBudgetRanOut && (stop.Steps > p.FileBudget(size)+1 || stop.Read > stop.ReadLimit+readChunk ||
				stop.Steps <= p.FileBudget(size) && stop.Read <= stop.ReadLimit):
				t.Errorf("stopped after %d steps and %d bytes read, want just over %d steps or %d bytes", stop.Steps, stop.Read, p.FileBudget(size), stop.ReadLimit)
			case tc.want == ProcessorTimeRanOut:
				if stop.CPU <= stop.Allowed || stop.Allowed > cpuCapBase+time.Duration(kb(size))*cpuCapPerKB || stop.Steps >= p.FileBudget(size) {
					t.Errorf("stop %+v", stop)
				}
				// Its steps did not tell its cost: the scan is charged
				// the whole budget of the file.
				if scan.Spent() != p.FileBudget(size) {
					t.Errorf("the scan was charged %d steps, want %d", scan.Spent(), p.FileBudget(size))
				}
			}
			if stop != nil {
				checkSkipped(t, m, tc.src)
			}
		})
	}
}

// TestIncrementalBudget checks the budget on the language server's path:
// a version that runs out of budget gives Parse's module and no tree to
// reuse, and the next version parses afresh.
func TestIncrementalBudget(t *testing.T) {
	ok := gymModule(16 << 10)
	// A version with 4 KB of decorators at the end, dear in steps (about
	// 50 per KB, where ordinary code takes 10).
	bad := append(append([]byte(nil), ok...), repeated("@", 4<<10)...)
	d := NewParser(Options{})
	okSteps, _ := steps(d, ok)
	badSteps, _ := steps(d, bad)
	d.Close()
	// A budget that ok fits in and bad does not.
	opts := Options{BaseSteps: 1, StepsPerKB: okSteps/kb(len(ok)) + 1}
	p, fresh := NewParser(opts), NewParser(opts)
	defer p.Close()
	defer fresh.Close()
	if p.FileBudget(len(bad)) >= badSteps {
		t.Fatalf("test setup: %d steps within a budget of %d", badSteps, p.FileBudget(len(bad)))
	}

	m, prev := p.ParseIncremental("m.py", ok, nil)
	if m.SyntaxError != nil || prev == nil {
		t.Fatalf("%d steps, budget %d: %+v", okSteps, p.FileBudget(len(ok)), m.SyntaxError)
	}
	m, prev = p.ParseIncremental("m.py", bad, prev)
	if stop := stopped(t, m); stop.Reason != FileBudgetRanOut || prev != nil {
		t.Fatalf("stop %+v, retained %v", stop, prev)
	}
	if want := fresh.Parse("m.py", bad); !reflect.DeepEqual(m, want) {
		t.Errorf("the stopped incremental parse differs from Parse's: %+v / %+v", m.SyntaxError, want.SyntaxError)
	}
	m, prev = p.ParseIncremental("m.py", ok, prev)
	defer prev.Close()
	if m.SyntaxError != nil || prev == nil || !reflect.DeepEqual(m, fresh.Parse("m.py", ok)) {
		t.Errorf("after the fix: %+v", m.SyntaxError)
	}
}

// TestBudgetHeadroom checks that the fixture modules take a third of
// their budget at most. With PYSCAN_BUDGET_FILES naming a file that lists
// Python files, one path a line, it measures those too and logs the
// least headroom (budget ÷ steps, and processor time allowed ÷ used) and
// the most processor time per step: how the defaults were chosen.
func TestBudgetHeadroom(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	for path, src := range fixtureSources(t) {
		if n, ok := steps(p, src); !ok || 3*n > p.FileBudget(len(src)) {
			t.Errorf("%s: %d steps of %d (finished: %v)", path, n, p.FileBudget(len(src)), ok)
		}
	}
	list := os.Getenv("PYSCAN_BUDGET_FILES")
	if list == "" {
		return
	}
	f, err := os.Open(list)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var files, total, totalSteps int64
	least, leastAt := 1e9, ""
	leastCPU, leastCPUAt, leastCPUUsed := 1e9, "", time.Duration(0)
	var perStep float64
	var perStepAt string
	mostRead, mostReadAt := 0.0, ""
	// Processor time is read on the thread that parsed.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		src, err := os.ReadFile(sc.Text())
		if err != nil {
			continue
		}
		tree, m := p.parseTree(src, nil, nil)
		cpu := threadCPU() - m.cpu0
		if tree == nil {
			t.Errorf("%s: stopped: %+v", sc.Text(), m.stop)
			continue
		}
		tree.Close()
		if r := float64(m.read) / float64(len(src)+1); r > mostRead && len(src) > 4<<10 {
			mostRead, mostReadAt = r, sc.Text()
		}
		files++
		total += int64(len(src))
		totalSteps += m.steps
		if h := float64(p.FileBudget(len(src))) / float64(m.steps+1); h < least {
			least, leastAt = h, sc.Text()
		}
		if m.started && cpu > 0 {
			allowed := min(m.capCPU, cpuBase+time.Duration(m.steps)*cpuPerStep)
			if h := float64(allowed) / float64(cpu); h < leastCPU {
				leastCPU, leastCPUAt, leastCPUUsed = h, sc.Text(), cpu
			}
			if r := float64(cpu.Microseconds()) / float64(m.steps); r > perStep && cpu > 20*time.Millisecond {
				perStep, perStepAt = r, sc.Text()
			}
		}
	}
	t.Logf("%d files, %d bytes, %d steps (%.1f per KB)", files, total, totalSteps, float64(totalSteps)/float64(total)*1024)
	t.Logf("least headroom %.1f (%s)", least, leastAt)
	t.Logf("least processor-time headroom %.1f (%s, %v)", leastCPU, leastCPUAt, leastCPUUsed)
	t.Logf("most processor time per step %.1fµs (%s)", perStep, perStepAt)
	t.Logf("most bytes read per byte of a file over 4 KB %.2f (%s)", mostRead, mostReadAt)
}

// TestStopWhileBalancing checks a parse stopped in its last phase, while
// tree-sitter balances the finished tree: tree-sitter 0.25's reset keeps
// the flag that says balancing was cancelled, so the parser's next parse
// would resume balancing a tree that the reset freed (an assertion
// failure that aborts the process). Every step but the last is allowed,
// and the last ones are the balancing's.
func TestStopWhileBalancing(t *testing.T) {
	src := []byte(strings.Repeat("x = 1\n", 20000))
	small := []byte("import ray\nclass A(Base):\n    x = f(1)\n")
	fresh := parseSrc(t, string(small))
	fresh.Path, fresh.Name = "small.py", "small"
	d := NewParser(Options{})
	n, ok := steps(d, src)
	d.Close()
	if !ok {
		t.Fatal("the file does not parse")
	}
	for _, cut := range []int64{1, 2, 5, 10} {
		p := NewParser(Options{MaxSteps: n - cut})
		if stop := stopped(t, p.Parse("m.py", src)); stop.Reason != FileBudgetRanOut {
			t.Fatalf("stop %+v", stop)
		}
		if m := p.Parse("small.py", small); !reflect.DeepEqual(m, fresh) {
			t.Errorf("%d steps short: after the stop the parser returned %+v", cut, m)
		}
		p.Close()
	}
}

// Charge's answer is the parse's: a budget that a parse within it goes to
// the end of has room for the steps a budget of its own counted, and with
// one step less the parse is not the same and there is no room. Both the plain text and one
// that is parsed twice (a line inside brackets that tree-sitter takes for
// a dedent, parsed again rewritten: relex) are counted whole.
func TestChargeMatchesTheParse(t *testing.T) {
	p := NewParser(Options{})
	defer p.Close()
	for i, src := range [][]byte{
		repeated("def f(x):\n    return x + 1\n\n", 20000),
		[]byte("def f():\n    x = (1 +\n2)\n    return x\n"),
	} {
		own := NewBudget(1 << 40)
		want := p.ParseWithin("m.py", src, own)
		n := own.Spent()
		if one, _ := steps(p, src); n <= 0 || i == 1 && n <= one {
			t.Fatalf("%d steps counted, %d for one parse of the text", n, one)
		}
		enough := NewBudget(n)
		if m := p.ParseWithin("m.py", src, enough); !reflect.DeepEqual(m, want) {
			t.Fatalf("a budget of %d steps: %+v", n, m.SyntaxError)
		}
		if !NewBudget(n).Charge(n) {
			t.Fatalf("a budget of %d steps has no room for them", n)
		}
		// One step short, the parse is not the same: stopped, or the
		// first parse's model without the second's.
		m := p.ParseWithin("m.py", src, NewBudget(n-1))
		if reflect.DeepEqual(m, want) || i == 0 && stopped(t, m).Reason != ScanBudgetRanOut {
			t.Fatalf("one step short: %+v", m.SyntaxError)
		}
		b := NewBudget(n - 1)
		if b.Charge(n) || b.Spent() != 0 {
			t.Fatalf("a budget one step short took them (%d spent)", b.Spent())
		}
		half := NewBudget(2*n - 1)
		if !half.Charge(n) || half.Charge(n) || half.Spent() != n {
			t.Fatalf("two charges of %d in %d steps: %d spent", n, 2*n-1, half.Spent())
		}
	}
	var none *Budget
	if !none.Charge(1 << 40) {
		t.Fatal("a nil budget has no room")
	}
}
