package confirm

// A counterexample as a standalone C program (chorus check --replay DIR).
//
// The program is the schedule itself, compiled from the IR: one line per
// step, "/* T<thread> file:line:col */" followed by the C code of the
// action that thread ran there, in the order of the schedule. It needs no
// threads and no inputs (a havoc is the value the schedule chose), so it
// is deterministic. Registers become C variables (a global register one,
// a local register one per thread), memory objects byte arrays (one per
// thread for a local object, calloc for an allocation), and memory
// accesses go through their addresses, so gcc computes every value on its
// own. Expressions follow the IR's semantics with C integer types:
// arithmetic in __int128, then converted (wrapped) to the result type;
// comparisons on exact values. An assume of the schedule that does not
// hold, a lock that is held, or an earlier check that fails makes the
// program exit with status 3 ("diverged"): the IR execution is not what
// gcc computes. Reaching the failing check with its condition false
// prints "chorus replay: <check> failed at file:line" and exits with
// status 1; status 0 means the check held.
//
// Not supported (ReplayC returns an error): floating values, integer
// widths other than 8, 16, 32 and 64 bits.

import (
	"fmt"
	"path/filepath"
	"strings"

	"chorus/cfg"
)

// ReplayC renders cex as a standalone C program (see above).
func ReplayC(p *cfg.Program, cex *Counterexample) ([]byte, error) {
	g := &cgen{p: p, threadTmpl: map[int]*cfg.Template{0: p.Templates[0]}, used: map[string]string{}}
	for _, s := range cex.Schedule {
		if s.Loc != nil {
			g.threadTmpl[s.Thread] = s.Loc.Template
		}
	}
	var body strings.Builder
	next := 1 // the id of the next spawned thread
	for i, s := range cex.Schedule {
		if s.Loc == nil {
			return nil, fmt.Errorf("replay: step %d has no location", i)
		}
		g.t = s.Thread
		code, err := g.action(s, i == len(cex.Schedule)-1, cex.Check, &next)
		if err != nil {
			return nil, fmt.Errorf("replay: step %d (%s:%d): %v", i, filepath.Base(s.Pos.Filename), s.Pos.Line, err)
		}
		fmt.Fprintf(&body, "  /* T%d %s:%d:%d */ %s\n", s.Thread, filepath.Base(s.Pos.Filename), s.Pos.Line, s.Pos.Column, code)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "/* chorus: a schedule that fails %q at %s:%d, as a sequential C program.\n", cex.Check.Msg, filepath.Base(cex.Check.Pos.Filename), cex.Check.Pos.Line)
	out.WriteString(" * Exit status 1: the check fails (reproduced); 3: the schedule diverged; 0: the check held.\n")
	out.WriteString(" * gcc -o replay replay.c && ./replay */\n")
	out.WriteString("#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n\n")
	out.WriteString("static void diverged(int step) { printf(\"chorus replay: diverged at step %d\\n\", step); exit(3); }\n\n")
	for _, name := range sortedKeys(g.used) {
		out.WriteString(g.used[name])
	}
	out.WriteString("\nint main(void) {\n")
	out.WriteString(body.String())
	out.WriteString("  printf(\"chorus replay: the check held\\n\");\n  return 0;\n}\n")
	return []byte(out.String()), nil
}

type cgen struct {
	p          *cfg.Program
	t          int // the thread of the current step
	threadTmpl map[int]*cfg.Template
	used       map[string]string // declarations by name
	step       int
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	// deterministic output
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

func ctype(t cfg.Type) (string, error) {
	switch t.Kind {
	case cfg.PtrType:
		return "uintptr_t", nil
	case cfg.IntType:
		if t.Bits == 0 {
			return "__int128", nil
		}
		switch t.Bits {
		case 8, 16, 32, 64:
			if t.Signed {
				return fmt.Sprintf("int%d_t", t.Bits), nil
			}
			return fmt.Sprintf("uint%d_t", t.Bits), nil
		}
		return "", fmt.Errorf("integer width %d", t.Bits)
	}
	return "", fmt.Errorf("floating values")
}

// reg names register v as thread t sees it, declaring it.
func (g *cgen) reg(v *cfg.Var) (string, error) {
	ct, err := ctype(v.Type)
	if err != nil {
		return "", err
	}
	name := fmt.Sprintf("g%d", v.ID)
	if v.Scope == cfg.Local || v.ThreadLocal {
		name = fmt.Sprintf("t%d_r%d", g.t, v.ID)
	}
	if _, ok := g.used[name]; !ok {
		init := ""
		if v.ThreadLocal && v.Init != nil {
			// a thread-local starts at its initial value in every thread
			if c, ok := v.Init.(*cfg.Const); ok {
				init = fmt.Sprintf(" = (%s)%dLL", ct, c.Value)
			} else {
				return "", fmt.Errorf("thread-local %s with a non-constant initializer", v.Name)
			}
		}
		g.used[name] = fmt.Sprintf("static %s %s%s; /* %s */\n", ct, name, init, v.Name)
	}
	return name, nil
}

// obj names the bytes of object o (thread t's instance of a local
// object), declaring them.
func (g *cgen) obj(o *cfg.Object) (string, error) {
	size := o.Size
	switch o.Kind {
	case cfg.HeapObject:
		return "", fmt.Errorf("address of allocation site %s", o.Name)
	case cfg.FuncObject:
		size = 1
	}
	if size < 0 && o.Kind == cfg.LocalObject {
		size = 4096 // a variable length array: the interpreter's capacity
	}
	if size < 0 {
		return "", fmt.Errorf("object %s of unknown size", o.Name)
	}
	name := fmt.Sprintf("o%d", o.ID)
	if o.Kind == cfg.LocalObject {
		name = fmt.Sprintf("t%d_o%d", g.t, o.ID)
	}
	if _, ok := g.used[name]; !ok {
		g.used[name] = fmt.Sprintf("static unsigned char %s[%d] __attribute__((aligned(16))); /* %s */\n", name, max(size, 1), o.Name)
	}
	return name, nil
}

func (g *cgen) expr(e cfg.Expr) (string, error) {
	switch e := e.(type) {
	case *cfg.Const:
		ct, err := ctype(e.Type)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((%s)%dLL)", ct, e.Value), nil
	case *cfg.VarRef:
		return g.reg(e.Var)
	case *cfg.AddrOf:
		o, err := g.obj(e.Object)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((uintptr_t)&%s[%d])", o, e.Offset), nil
	case *cfg.Deref:
		return g.lvalue(e)
	case *cfg.Cast:
		x, err := g.expr(e.X)
		if err != nil {
			return "", err
		}
		ct, err := ctype(e.Type)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("((%s)%s)", ct, x), nil
	case *cfg.Unary:
		x, err := g.expr(e.X)
		if err != nil {
			return "", err
		}
		ct, err := ctype(e.Type)
		if err != nil {
			return "", err
		}
		switch e.Op {
		case cfg.Neg:
			return fmt.Sprintf("((%s)(-(__int128)%s))", ct, x), nil
		case cfg.Not:
			return fmt.Sprintf("((%s)!%s)", ct, x), nil
		case cfg.BitNot:
			return fmt.Sprintf("((%s)(~(__int128)%s))", ct, x), nil
		}
		return "", fmt.Errorf("unary operator %d", e.Op)
	case *cfg.Binary:
		x, err := g.expr(e.X)
		if err != nil {
			return "", err
		}
		y, err := g.expr(e.Y)
		if err != nil {
			return "", err
		}
		ct, err := ctype(e.Type)
		if err != nil {
			return "", err
		}
		wide := func(op string) string {
			return fmt.Sprintf("((%s)((__int128)%s %s (__int128)%s))", ct, x, op, y)
		}
		switch e.Op {
		case cfg.Add, cfg.PtrAdd:
			return wide("+"), nil
		case cfg.Sub, cfg.PtrSub:
			return wide("-"), nil
		case cfg.Mul:
			return wide("*"), nil
		case cfg.Div:
			return wide("/"), nil
		case cfg.Rem:
			return wide("%"), nil
		case cfg.And:
			return wide("&"), nil
		case cfg.Or:
			return wide("|"), nil
		case cfg.Xor:
			return wide("^"), nil
		case cfg.Shl:
			return fmt.Sprintf("((%s)((unsigned __int128)(__int128)%s << %s))", ct, x, y), nil
		case cfg.Shr:
			return fmt.Sprintf("((%s)(%s >> %s))", ct, x, y), nil
		case cfg.Eq:
			return wide("=="), nil
		case cfg.Ne:
			return wide("!="), nil
		case cfg.Lt:
			return wide("<"), nil
		case cfg.Le:
			return wide("<="), nil
		case cfg.Gt:
			return wide(">"), nil
		case cfg.Ge:
			return wide(">="), nil
		case cfg.LAnd:
			return fmt.Sprintf("((%s)(%s != 0 && %s != 0))", ct, x, y), nil
		case cfg.LOr:
			return fmt.Sprintf("((%s)(%s != 0 || %s != 0))", ct, x, y), nil
		}
		return "", fmt.Errorf("binary operator %d", e.Op)
	}
	return "", fmt.Errorf("expression %T", e)
}

// lvalue is the C lvalue of a register or a memory access.
func (g *cgen) lvalue(lv cfg.LValue) (string, error) {
	switch d := lv.(type) {
	case *cfg.VarRef:
		return g.reg(d.Var)
	case *cfg.Deref:
		a, err := g.expr(d.Addr)
		if err != nil {
			return "", err
		}
		ct, err := ctype(d.Type)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("(*(%s *)%s)", ct, a), nil
	}
	return "", fmt.Errorf("destination %T", lv)
}

// store assigns the C expression val (of type from) to lv.
func (g *cgen) store(lv cfg.LValue, val string) (string, error) {
	d, err := g.lvalue(lv)
	if err != nil {
		return "", err
	}
	ct, err := ctype(lv.ExprType())
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s = (%s)%s;", d, ct, val), nil
}

func (g *cgen) action(s Step, last bool, check *cfg.Check, next *int) (string, error) {
	g.step++
	div := fmt.Sprintf("diverged(%d);", g.step)
	switch a := s.Loc.Act.(type) {
	case *cfg.Skip, *cfg.AtomicBegin, *cfg.AtomicEnd, *cfg.Join, *cfg.Output:
		// a Join's target has finished: the schedule ran it; output is
		// not reproduced
		return ";", nil
	case *cfg.InitGlobals:
		return g.initGlobals()
	case *cfg.Assign:
		v, err := g.expr(a.Src)
		if err != nil {
			return "", err
		}
		return g.store(a.Dst, v)
	case *cfg.Havoc:
		if d, ok := a.Dst.(*cfg.Deref); ok {
			if ad, ok := d.Addr.(*cfg.AddrOf); ok && (ad.Object.Kind == cfg.HeapObject || ad.Object.Size < 0) {
				return ";", nil // the interpreter changes nothing there either
			}
		}
		return g.store(a.Dst, fmt.Sprintf("((int64_t)%dLL)", s.Value))
	case *cfg.Assume:
		c, err := g.expr(a.Cond)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("if (!%s) %s", c, div), nil
	case *cfg.CheckAct:
		c, err := g.expr(a.Cond)
		if err != nil {
			return "", err
		}
		if last && a.Check == check {
			return fmt.Sprintf("if (!%s) { printf(\"chorus replay: %s failed at %s:%d\\n\"); return 1; }", c, cquote(check.Msg), filepath.Base(check.Pos.Filename), check.Pos.Line), nil
		}
		return fmt.Sprintf("if (!%s) %s", c, div), nil
	case *cfg.Acquire:
		l, err := g.lvalue(a.Lock)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("if (%s) %s %s = 1;", l, div, l), nil
	case *cfg.Release:
		l, err := g.lvalue(a.Lock)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s = 0;", l), nil
	case *cfg.Alloc:
		size := "0"
		if a.Size != nil {
			sz, err := g.expr(a.Size)
			if err != nil {
				return "", err
			}
			size = sz
		} else if a.Site != nil && a.Site.Size >= 0 {
			size = fmt.Sprint(a.Site.Size)
		}
		return g.store(a.Dst, fmt.Sprintf("((uintptr_t)calloc((size_t)%s + 1, 1))", size))
	case *cfg.Spawn:
		id := *next
		*next = id + 1
		var parts []string
		tmpl := g.threadTmpl[id]
		if tmpl != nil && tmpl.Param != nil && a.Arg != nil {
			arg, err := g.expr(a.Arg)
			if err != nil {
				return "", err
			}
			saved := g.t
			g.t = id
			pr, err := g.reg(tmpl.Param)
			g.t = saved
			if err != nil {
				return "", err
			}
			ct, _ := ctype(tmpl.Param.Type)
			parts = append(parts, fmt.Sprintf("%s = (%s)%s;", pr, ct, arg))
		}
		if a.Handle != nil {
			st, err := g.store(a.Handle, fmt.Sprintf("((int64_t)%d)", id))
			if err != nil {
				return "", err
			}
			parts = append(parts, st)
		}
		parts = append(parts, fmt.Sprintf("/* thread %d starts */", id))
		return strings.Join(parts, " "), nil
	}
	return "", fmt.Errorf("action %T", s.Loc.Act)
}

// initGlobals gives global registers and static objects their initial
// values (main's first action).
func (g *cgen) initGlobals() (string, error) {
	var parts []string
	for _, v := range g.p.Vars {
		if v.Mem != nil || v.Scope != cfg.Global || v.Init == nil || v.ThreadLocal {
			continue
		}
		val, err := g.expr(v.Init)
		if err != nil {
			return "", err
		}
		st, err := g.store(&cfg.VarRef{Var: v}, val)
		if err != nil {
			return "", err
		}
		parts = append(parts, st)
	}
	for _, o := range g.p.Objects {
		if o.Kind != cfg.GlobalObject && o.Kind != cfg.StringObject || len(o.Init) == 0 {
			continue
		}
		name, err := g.obj(o)
		if err != nil {
			return "", err
		}
		for _, iv := range o.Init {
			val, err := g.expr(iv.Value)
			if err != nil {
				return "", err
			}
			ct, err := ctype(iv.Type)
			if err != nil {
				return "", err
			}
			parts = append(parts, fmt.Sprintf("*(%s *)&%s[%d] = (%s)%s;", ct, name, iv.Offset, ct, val))
		}
	}
	if len(parts) == 0 {
		return ";", nil
	}
	return strings.Join(parts, " "), nil
}

func cquote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "%", "%%")
	return r.Replace(s)
}
