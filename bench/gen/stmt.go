package gen

import (
	"strconv"
	"strings"
)

// fnRef names a callable and how many positional arguments it takes.
type fnRef struct {
	name  string
	arity int
}

// modEnv is what the statements of one module may refer to. Everything in
// it is defined somewhere in the module (or imported by it), so generated
// code reads like code that could run.
type modEnv struct {
	funcs      []fnRef  // module-level or imported sync functions
	selfAsync  []fnRef  // async methods of the class being generated
	selfSync   []fnRef  // sync methods of the class being generated
	selfDicts  []string // dict-valued fields of self
	cfgFields  []string // fields of self.config
	serverRefs []string // expressions naming another server, for server_client calls
	consts     []string // module-level numeric constants
	regex      string   // a compiled pattern defined in the module, "" if none
	remote     []string // @ray.remote functions callable from the module
	rayGet     bool     // ray is imported, so ray.get may be used
	lock       string   // an asyncio.Lock field of self, "" if none
	httpErr    bool     // fastapi.HTTPException is imported
	asserts    bool     // test code: favour assert statements
}

// fn generates the body of one function.
type fn struct {
	r      *rng
	w      *pyw
	env    *modEnv
	async  bool
	method bool
	locals []string
	// pending holds names assigned by the statement being written; they
	// become visible to the statements after it, so that a statement does
	// not read the name it is defining.
	pending []string
	loops   int
	depth   int
}

func newFn(r *rng, w *pyw, env *modEnv, async, method bool, params ...string) *fn {
	f := &fn{r: r, w: w, env: env, async: async, method: method}
	f.locals = append(f.locals, params...)
	if len(f.locals) == 0 {
		f.locals = append(f.locals, "payload")
		w.l("payload = {}")
	}
	return f
}

func (f *fn) local() string { return pick(f.r, f.locals) }

func (f *fn) fresh() string {
	name := pick(f.r, localNames)
	if f.r.permille(250) {
		name += "_" + pick(f.r, []string{"by_key", "list", "map", "count", "raw", "ids", "new", "tmp"})
	}
	f.pending = append(f.pending, name)
	return name
}

func (f *fn) commit() {
	f.locals = append(f.locals, f.pending...)
	f.pending = f.pending[:0]
}

func (f *fn) key() string { return `"` + pick(f.r, dictKeys) + `"` }
func (f *fn) str() string { return `"` + pick(f.r, stringValues) + `"` }

func (f *fn) num() string {
	switch f.r.intn(4) {
	case 0:
		return strconv.Itoa(f.r.between(0, 10))
	case 1:
		return strconv.Itoa(f.r.between(16, 4096))
	case 2:
		return "0." + strconv.Itoa(f.r.between(1, 99))
	default:
		if len(f.env.consts) > 0 {
			return pick(f.r, f.env.consts)
		}
		return strconv.Itoa(f.r.between(1, 64))
	}
}

func (f *fn) cfg() string {
	if f.method && len(f.env.cfgFields) > 0 {
		return "self.config." + pick(f.r, f.env.cfgFields)
	}
	return f.num()
}

func (f *fn) call1(arg string) string {
	var ones []fnRef
	for _, c := range f.env.funcs {
		if c.arity == 1 {
			ones = append(ones, c)
		}
	}
	if len(ones) == 0 {
		return "str(" + arg + ").strip()"
	}
	return pick(f.r, ones).name + "(" + arg + ")"
}

func (f *fn) expr() string {
	switch f.r.intn(11) {
	case 0, 1, 2:
		return f.local()
	case 3:
		return f.local() + "." + pick(f.r, attrNames)
	case 4:
		return f.local() + ".get(" + f.key() + ")"
	case 5:
		return f.num()
	case 6:
		return f.str()
	case 7:
		return f.cfg()
	case 8:
		return "len(" + f.local() + ")"
	case 9:
		return f.call1(f.local())
	default:
		return f.local() + "[" + f.key() + "]"
	}
}

func (f *fn) cond() string {
	switch f.r.intn(9) {
	case 0:
		return f.local()
	case 1:
		return "not " + f.local()
	case 2:
		return f.local() + " is None"
	case 3:
		return "len(" + f.local() + ") > " + f.num()
	case 4:
		return f.key() + " in " + f.local()
	case 5:
		return "isinstance(" + f.local() + ", " + pick(f.r, []string{"dict", "list", "str", "int", "(int, float)"}) + ")"
	case 6:
		return f.local() + " == " + f.str()
	case 7:
		return f.local() + " and not " + f.local()
	default:
		return f.local() + " >= " + f.cfg()
	}
}

func (f *fn) fstr() string {
	var b strings.Builder
	b.WriteString(`f"`)
	b.WriteString(pick(f.r, phrases))
	b.WriteString(" ")
	b.WriteString(pick(f.r, nouns))
	b.WriteString(" {" + f.local() + "}")
	if f.r.permille(400) {
		b.WriteString(" (" + pick(f.r, nouns) + "={len(" + f.local() + ")})")
	}
	if f.r.permille(200) {
		b.WriteString(" got {" + f.local() + "!r}")
	}
	if f.r.permille(150) {
		b.WriteString(" after {" + f.local() + ":.2f}s")
	}
	b.WriteString(`"`)
	return b.String()
}

// stmts writes n statements at the current indentation.
func (f *fn) stmts(n int) {
	for i := 0; i < n; i++ {
		f.stmt()
	}
	f.commit()
}

// block writes an indented block of n statements.
func (f *fn) block(n int) {
	f.w.in()
	f.depth++
	f.stmts(n)
	f.depth--
	f.w.out()
}

// stmt writes one statement, simple or compound. Kinds whose prerequisites
// are missing (an await outside a coroutine, a self field in a plain
// function) fall through to a plain assignment.
func (f *fn) stmt() {
	f.commit()
	w := f.w
	if f.r.permille(100) {
		comment(w, f.r)
	}
	k := f.r.intn(100)
	if f.depth >= 3 && k >= 70 {
		k = f.r.intn(70)
	}
	if f.env.asserts && f.r.permille(300) {
		f.sAssert()
		return
	}
	switch {
	case k < 6:
		w.l("%s = %s.get(%s, %s)", f.fresh(), f.local(), f.key(), pick(f.r, []string{"None", `""`, "0", "[]", "{}", f.str()}))
	case k < 10:
		if f.method && len(f.env.selfDicts) > 0 && f.r.permille(600) {
			w.l("%s = self.%s[%s]", f.fresh(), pick(f.r, f.env.selfDicts), pick(f.r, []string{f.local(), f.key()}))
		} else {
			w.l("%s = %s[%s]", f.fresh(), f.local(), f.key())
		}
	case k < 14:
		f.sListComp()
	case k < 17:
		f.sDictComp()
	case k < 22:
		w.l("logger.%s(%s)", pick(f.r, []string{"debug", "info", "warning", "debug"}), f.fstr())
	case k < 24:
		w.l("%s = %s", f.fresh(), f.fstr())
	case k < 29:
		f.sCall()
	case k < 33:
		f.sAwait()
	case k < 37:
		f.sArith()
	case k < 39:
		w.l("%s = %s if %s else %s", f.fresh(), f.expr(), f.cond(), f.expr())
	case k < 41:
		if f.r.permille(500) {
			w.l("%s = sorted(%s, key=lambda item: item[%d], reverse=True)[:%s]", f.fresh(), f.local(), f.r.intn(2), f.num())
		} else {
			w.l("%s = sorted(%s.items(), key=lambda kv: (-kv[1], kv[0]))", f.fresh(), f.local())
		}
	case k < 44:
		if f.r.permille(500) {
			w.l("%s = json.dumps(%s, ensure_ascii=False, sort_keys=True)", f.fresh(), f.local())
		} else {
			w.l("%s = json.loads(%s)", f.fresh(), f.local())
		}
	case k < 46:
		w.l(`%s = "%s".join(str(part) for part in %s if part)`, f.fresh(), pick(f.r, []string{`\n`, ", ", " ", "", " | "}), f.local())
	case k < 49:
		f.sRegex()
	case k < 50:
		w.l(`%s, _, %s = str(%s).partition("%s")`, f.fresh(), f.fresh(), f.local(), pick(f.r, []string{":", "=", "/", "\\n"}))
	case k < 52:
		f.sAssert()
	case k < 56:
		f.sSelfStore()
	case k < 58:
		f.sKwargs()
	case k < 59:
		w.l("%s = any(str(x).startswith(%s) for x in %s)", f.fresh(), f.str(), f.local())
	case k < 60:
		w.l("%s = time.monotonic()", f.fresh())
	case k < 62:
		if f.loops > 0 {
			w.l("if %s:", f.cond())
			w.in()
			w.l("%s", pick(f.r, []string{"continue", "break"}))
			w.out()
		} else {
			f.sRaise()
		}
	case k < 65:
		f.sRay()
	case k < 67:
		f.sRaise()
	case k < 70:
		w.l("%s = [%s, %s]", f.fresh(), f.expr(), f.expr())
	// Compound statements from here on.
	case k < 78:
		f.sIf()
	case k < 84:
		f.sFor()
	case k < 90:
		f.sTry()
	case k < 93:
		f.sWith()
	case k < 96:
		f.sWalrus()
	case k < 98:
		f.sWhile()
	default:
		f.sMatch()
	}
}

func (f *fn) sListComp() {
	v := f.fresh()
	src := f.local()
	a := pick(f.r, attrNames)
	switch f.r.intn(4) {
	case 0:
		f.w.l("%s = [x.%s for x in %s if x.%s is not None]", v, a, src, a)
	case 1:
		f.w.l("%s = [str(x).strip() for x in %s]", v, src)
	case 2:
		f.w.l("%s = [x for x in %s if x not in %s]", v, src, f.local())
	default:
		f.w.l("%s = {x.get(%s) for x in %s if isinstance(x, dict)}", v, f.key(), src)
	}
}

func (f *fn) sDictComp() {
	v := f.fresh()
	src := f.local()
	switch f.r.intn(3) {
	case 0:
		f.w.l("%s = {k: val for k, val in %s.items() if val is not None}", v, src)
	case 1:
		f.w.l("%s = {str(k): len(val) for k, val in %s.items()}", v, src)
	default:
		f.w.l("%s = {item[%s]: item for item in %s}", v, f.key(), src)
	}
}

func (f *fn) sCall() {
	if len(f.env.funcs) == 0 {
		f.w.l("%s = %s", f.fresh(), f.call1(f.local()))
		return
	}
	c := pick(f.r, f.env.funcs)
	args := make([]string, c.arity)
	for i := range args {
		args[i] = f.expr()
	}
	f.w.l("%s = %s(%s)", f.fresh(), c.name, strings.Join(args, ", "))
}

func (f *fn) sAwait() {
	w := f.w
	if !f.async {
		f.sCall()
		return
	}
	switch {
	case f.method && len(f.env.serverRefs) > 0 && f.r.permille(450):
		resp := f.fresh()
		w.l("%s = await self.server_client.post(", resp)
		w.in()
		w.l("server_name=%s,", pick(f.r, f.env.serverRefs))
		w.l(`url_path="/%s_%s",`, pick(f.r, verbs), pick(f.r, nouns))
		w.l("json=%s,", f.local())
		w.out()
		w.l(")")
		w.l("%s = await %s.json()", f.fresh(), resp)
	case f.method && len(f.env.selfAsync) > 0 && f.r.permille(300):
		var ones []fnRef
		for _, c := range f.env.selfAsync {
			if c.arity == 1 {
				ones = append(ones, c)
			}
		}
		if len(ones) > 0 {
			w.l("%s = await asyncio.gather(*[self.%s(item) for item in %s], return_exceptions=True)", f.fresh(), pick(f.r, ones).name, f.local())
			return
		}
		fallthrough
	case f.method && len(f.env.selfAsync) > 0:
		c := pick(f.r, f.env.selfAsync)
		args := make([]string, c.arity)
		for i := range args {
			args[i] = f.expr()
		}
		w.l("%s = await self.%s(%s)", f.fresh(), c.name, strings.Join(args, ", "))
	case f.r.permille(500):
		w.l("%s = await asyncio.to_thread(%s, %s)", f.fresh(), pick(f.r, []string{"json.dumps", "sorted", "str", "len"}), f.local())
	default:
		w.l("await asyncio.sleep(%s)", pick(f.r, []string{"0", "0.01", "0.1"}))
	}
}

func (f *fn) sArith() {
	w := f.w
	switch f.r.intn(5) {
	case 0:
		w.l("%s = len(%s) / max(len(%s), 1)", f.fresh(), f.local(), f.local())
	case 1:
		w.l("%s = round(float(%s) * %s, 4)", f.fresh(), f.local(), f.num())
	case 2:
		w.l("%s = min(max(%s, 0), %s)", f.fresh(), f.local(), f.num())
	case 3:
		w.l("%s += %s", f.local(), pick(f.r, []string{"1", f.num(), "len(" + f.local() + ")"}))
	default:
		w.l("%s = math.exp(-abs(float(%s) - float(%s)) / %s)", f.fresh(), f.local(), f.local(), f.num())
	}
}

func (f *fn) sRegex() {
	if f.env.regex != "" {
		if f.r.permille(500) {
			f.w.l("%s = %s.findall(str(%s))", f.fresh(), f.env.regex, f.local())
		} else {
			f.w.l(`%s = %s.sub("", str(%s)).strip()`, f.fresh(), f.env.regex, f.local())
		}
		return
	}
	f.w.l("%s = re.findall(%s, str(%s))", f.fresh(), pick(f.r, regexPatterns), f.local())
}

func (f *fn) sAssert() {
	switch f.r.intn(4) {
	case 0:
		f.w.l("assert isinstance(%s, (dict, list)), %s", f.local(), f.fstr())
	case 1:
		f.w.l("assert %s == %s", f.expr(), f.expr())
	case 2:
		f.w.l("assert %s is not None", f.expr())
	default:
		f.w.l("assert len(%s) %s %s", f.local(), pick(f.r, []string{"==", ">=", "<", ">"}), f.num())
	}
}

func (f *fn) sSelfStore() {
	if !f.method || len(f.env.selfDicts) == 0 {
		f.sDictComp()
		return
	}
	d := pick(f.r, f.env.selfDicts)
	switch f.r.intn(3) {
	case 0:
		f.w.l("self.%s[%s] = %s", d, f.local(), f.expr())
	case 1:
		f.w.l("self.%s.setdefault(%s, []).append(%s)", d, f.local(), f.expr())
	default:
		f.w.l("self.%s.pop(%s, None)", d, f.local())
	}
}

func (f *fn) sKwargs() {
	w := f.w
	w.l("%s = dict(", f.fresh())
	w.in()
	seen := map[string]bool{}
	for i, n := 0, f.r.between(2, 6); i < n; i++ {
		k := pick(f.r, dictKeys)
		if seen[k] {
			continue
		}
		seen[k] = true
		w.l("%s=%s,", k, f.expr())
	}
	w.out()
	w.l(")")
}

func (f *fn) sRaise() {
	w := f.w
	w.l("if %s:", f.cond())
	w.in()
	if f.env.httpErr {
		w.l("raise HTTPException(status_code=%s, detail=%s)", pick(f.r, []string{"400", "404", "409", "422"}), f.fstr())
	} else {
		w.l("raise %s(%s)", pick(f.r, []string{"ValueError", "KeyError", "RuntimeError"}), f.fstr())
	}
	w.out()
}

func (f *fn) sRay() {
	w := f.w
	if !f.async || len(f.env.remote) == 0 {
		f.sCall()
		return
	}
	ref := f.fresh()
	if f.r.permille(300) {
		w.l("%s = %s.options(num_cpus=1).remote(%s)", ref, pick(f.r, f.env.remote), f.local())
	} else {
		w.l("%s = %s.remote(%s)", ref, pick(f.r, f.env.remote), f.local())
	}
	if !f.env.rayGet {
		w.l("%s = await %s", f.fresh(), ref)
		return
	}
	switch f.r.intn(3) {
	case 0:
		w.l("%s = await asyncio.to_thread(ray.get, %s)", f.fresh(), ref)
	case 1:
		w.l("%s = await asyncio.get_running_loop().run_in_executor(None, ray.get, %s)", f.fresh(), ref)
	default:
		w.l("%s = await %s", f.fresh(), ref)
	}
}

func (f *fn) sIf() {
	w := f.w
	w.l("if %s:", f.cond())
	f.block(f.r.between(1, 3))
	if f.r.permille(300) {
		w.l("elif %s:", f.cond())
		f.block(f.r.between(1, 2))
	}
	if f.r.permille(400) {
		w.l("else:")
		f.block(f.r.between(1, 2))
	}
}

func (f *fn) sFor() {
	w := f.w
	switch f.r.intn(3) {
	case 0:
		w.l("for item in %s:", f.local())
		f.locals = append(f.locals, "item")
	case 1:
		w.l("for idx, entry in enumerate(%s):", f.local())
		f.locals = append(f.locals, "idx", "entry")
	default:
		w.l("for key, value in %s.items():", f.local())
		f.locals = append(f.locals, "key", "value")
	}
	f.loops++
	f.block(f.r.between(1, 4))
	f.loops--
}

func (f *fn) sTry() {
	w := f.w
	w.l("try:")
	f.block(f.r.between(1, 3))
	switch f.r.intn(4) {
	case 0:
		w.l("except (KeyError, ValueError, TypeError) as e:")
	case 1:
		w.l("except json.JSONDecodeError as e:")
	case 2:
		if f.async {
			w.l("except asyncio.TimeoutError as e:")
		} else {
			w.l("except OSError as e:")
		}
	default:
		w.l("except Exception as e:  # noqa: BLE001")
	}
	w.in()
	w.l(`logger.warning(f"%s %s: {e}")`, pick(f.r, phrases), pick(f.r, nouns))
	if f.r.permille(500) {
		w.l("%s = %s", f.fresh(), pick(f.r, []string{"None", "{}", "[]", "0.0", `""`}))
	} else {
		f.stmt()
	}
	w.out()
	if f.r.permille(250) {
		w.l("finally:")
		f.block(1)
	}
}

func (f *fn) sWith() {
	w := f.w
	if f.async && f.method && f.env.lock != "" {
		w.l("async with self.%s:", f.env.lock)
		f.block(f.r.between(1, 3))
		return
	}
	w.l(`with open(%s, encoding="utf-8") as fh:`, f.local())
	w.in()
	w.l("%s = %s", f.fresh(), pick(f.r, []string{"fh.read()", "json.load(fh)", "[line.rstrip() for line in fh]"}))
	w.out()
	f.block(f.r.between(0, 1))
}

func (f *fn) sWalrus() {
	w := f.w
	src := f.local()
	if f.env.regex != "" {
		w.l("if (m := %s.search(str(%s))) is not None:", f.env.regex, src)
	} else {
		w.l("if (m := re.search(%s, str(%s))) is not None:", pick(f.r, regexPatterns), src)
	}
	w.in()
	w.l("%s = m.group(%d).strip()", f.fresh(), f.r.between(0, 1))
	w.out()
	f.block(f.r.between(0, 1))
}

func (f *fn) sWhile() {
	w := f.w
	w.l("attempt = 0")
	w.l("while attempt < %s:", f.cfg())
	f.locals = append(f.locals, "attempt")
	w.in()
	w.l("attempt += 1")
	f.loops++
	f.depth++
	f.stmts(f.r.between(1, 3))
	w.l("if %s:", f.cond())
	w.in()
	w.l("break")
	w.out()
	f.depth--
	f.loops--
	w.out()
}

func (f *fn) sMatch() {
	w := f.w
	w.l("match %s:", f.local())
	w.in()
	w.l(`case {"type": "text", "text": str() as inner}:`)
	w.in()
	w.l("%s = inner", f.fresh())
	w.out()
	w.l("case [first, *rest]:")
	f.locals = append(f.locals, "first", "rest")
	f.block(1)
	w.l("case str() | bytes():")
	w.in()
	w.l("%s = %s", f.fresh(), f.local())
	w.out()
	w.l("case _:")
	f.block(1)
	w.out()
}
