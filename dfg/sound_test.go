package dfg

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	"chorus/cfg"
	"chorus/cfg/interp"
	"chorus/domains"
)

// Soundness property: for random single-threaded programs (straight-line
// code, branches, bounded loops, wrapping and checked signed arithmetic,
// weak array updates), every state the reference interpreter visits lies
// inside the invariant at its location, and no check that fails in a run
// is reported proven.

var genTypes = []cfg.Type{
	cfg.Int32, cfg.Uint32,
	{Kind: cfg.IntType, Bits: 8, Signed: true},
	{Kind: cfg.IntType, Bits: 8},
}

var genConsts = []int64{0, 1, 2, 3, 7, 100, 127, 128, 255, 256, -1, -2, -128, -129, 1000, 2147483647, -2147483648, 4294967295}

type gen struct {
	r     *rand.Rand
	b     *irb
	vars  []*cfg.Var
	arr   *cfg.Object
	cell  *cfg.Var
	depth int
	n     int // statements left
}

func (g *gen) constOf(t cfg.Type) *cfg.Const {
	for {
		c := genConsts[g.r.Intn(len(genConsts))]
		if ivContains(typeRange(t), c) {
			return kt(t, c)
		}
	}
}

func (g *gen) operand(t cfg.Type) cfg.Expr {
	switch g.r.Intn(4) {
	case 0:
		return g.constOf(t)
	case 1:
		if g.arr != nil && t == cfg.Int32 {
			return g.elem()
		}
	}
	v := g.vars[g.r.Intn(len(g.vars))]
	if v.Type == t {
		return ref(v)
	}
	return &cfg.Cast{X: ref(v), Type: t}
}

// elem is a[idx] with idx in [0, 3) by construction.
func (g *gen) elem() *cfg.Deref {
	var idx cfg.Expr = kt(cfg.Int64, int64(g.r.Intn(3)))
	if g.r.Intn(2) == 0 {
		v := g.vars[g.r.Intn(len(g.vars))]
		var x cfg.Expr = ref(v)
		if v.Type != cfg.Uint32 {
			x = &cfg.Cast{X: x, Type: cfg.Uint32}
		}
		idx = &cfg.Cast{X: binT(cfg.Rem, cfg.Uint32, x, kt(cfg.Uint32, 3)), Type: cfg.Int64}
	}
	pt := cfg.Type{Kind: cfg.PtrType, Bits: 64}
	addr := &cfg.Binary{Op: cfg.PtrAdd, X: &cfg.AddrOf{Object: g.arr, Type: pt}, Y: binT(cfg.Mul, cfg.Int64, idx, kt(cfg.Int64, 4)), Type: pt}
	return &cfg.Deref{Addr: addr, Type: cfg.Int32, Cells: []*cfg.Var{g.cell}}
}

// assignment returns the actions for dst := random expression (with the
// overflow check a signed operation needs).
func (g *gen) assignment(dst cfg.LValue) []cfg.Action {
	t := dst.ExprType()
	x, y := g.operand(t), g.operand(t)
	ops := []cfg.BinOp{cfg.Add, cfg.Sub, cfg.Mul, cfg.And, cfg.Or, cfg.Xor, cfg.Rem, cfg.Div, cfg.Shr, cfg.Lt, cfg.Eq}
	var src cfg.Expr
	var pre []cfg.Action
	switch k := g.r.Intn(5); k {
	case 0:
		src = x
	case 1:
		src = &cfg.Unary{Op: []cfg.UnOp{cfg.Neg, cfg.Not, cfg.BitNot}[g.r.Intn(3)], X: x, Type: t}
		if u := src.(*cfg.Unary); u.Op == cfg.Neg && t.Signed {
			pre = append(pre, g.b.check(cfg.OverflowCheck, rangeCond(&cfg.Unary{Op: cfg.Neg, X: mi(x), Type: cfg.MathInt}, t)))
		}
		if u := src.(*cfg.Unary); u.Op == cfg.Not {
			u.Type = cfg.Bool
			if t != cfg.Bool {
				src = &cfg.Cast{X: u, Type: t}
			}
		}
	default:
		op := ops[g.r.Intn(len(ops))]
		switch op {
		case cfg.Rem, cfg.Div:
			c := g.constOf(t)
			for c.Value == 0 || c.Value == -1 {
				c = g.constOf(t)
			}
			y = c
		case cfg.Shr:
			y = kt(t, int64(g.r.Intn(t.Bits)))
		}
		if isComparison(op) {
			src = &cfg.Binary{Op: op, X: x, Y: y, Type: cfg.Bool}
			if t != cfg.Bool {
				src = &cfg.Cast{X: src, Type: t}
			}
			break
		}
		src = binT(op, t, x, y)
		if t.Signed && (op == cfg.Add || op == cfg.Sub || op == cfg.Mul) {
			pre = append(pre, g.b.check(cfg.OverflowCheck, rangeCond(binT(op, cfg.MathInt, mi(x), mi(y)), t)))
		}
	}
	return append(pre, asg(dst, src))
}

func rangeCond(e cfg.Expr, t cfg.Type) cfg.Expr {
	r := typeRange(t)
	return bin(cfg.LAnd, bin(cfg.Ge, e, kM(r.Lo.V)), bin(cfg.Le, e, kM(r.Hi.V)))
}

func (g *gen) cond() cfg.Expr {
	t := genTypes[g.r.Intn(len(genTypes))]
	ops := []cfg.BinOp{cfg.Lt, cfg.Le, cfg.Gt, cfg.Ge, cfg.Eq, cfg.Ne}
	c := cfg.Expr(&cfg.Binary{Op: ops[g.r.Intn(len(ops))], X: g.operand(t), Y: g.operand(t), Type: cfg.Bool})
	switch g.r.Intn(6) {
	case 0:
		c = &cfg.Binary{Op: cfg.LAnd, X: c, Y: g.cond(), Type: cfg.Bool}
	case 1:
		c = &cfg.Binary{Op: cfg.LOr, X: c, Y: g.cond(), Type: cfg.Bool}
	case 2:
		c = &cfg.Unary{Op: cfg.Not, X: c, Type: cfg.Bool}
	}
	return c
}

// block appends statements after prev and returns the last location.
func (g *gen) block(prev *cfg.Loc) *cfg.Loc {
	for g.n > 0 && g.r.Intn(6) != 0 {
		g.n--
		v := g.vars[g.r.Intn(len(g.vars))]
		switch k := g.r.Intn(10); {
		case k < 4:
			_, prev = g.b.seq(prev, g.assignment(ref(v))...)
		case k == 4:
			_, prev = g.b.seq(prev, havoc(ref(v)))
		case k == 5 && g.arr != nil:
			_, prev = g.b.seq(prev, g.assignment(g.elem())...)
		case k == 6:
			_, prev = g.b.seq(prev, assume(g.cond()))
		case k == 7 && g.r.Intn(2) == 0:
			_, prev = g.b.seq(prev, g.b.check(cfg.AssertCheck, g.cond()))
		case k == 8 && g.depth < 2: // if-else
			g.depth++
			c := g.cond()
			t1, _ := g.b.seq(prev, assume(c))
			e1 := g.block(t1)
			t2, _ := g.b.seq(prev, assume(&cfg.Unary{Op: cfg.Not, X: c, Type: cfg.Bool}))
			e2 := g.block(t2)
			join := g.b.loc(&cfg.Skip{})
			link(e1, join)
			link(e2, join)
			prev = join
			g.depth--
		case k == 9 && g.depth < 2: // bounded loop on a fresh counter
			g.depth++
			i := g.b.local(fmt.Sprintf("i%d", len(g.b.p.Vars)), cfg.Int32)
			n := int64(g.r.Intn(5))
			_, init := g.b.seq(prev, asg(ref(i), k32(0)))
			head := g.b.loc(&cfg.Skip{})
			link(init, head)
			body, _ := g.b.seq(head, assume(bin(cfg.Lt, ref(i), k32(n))))
			end := g.block(body)
			_, end = g.b.seq(end, asg(ref(i), bin(cfg.Add, ref(i), k32(1))))
			link(end, head)
			_, prev = g.b.seq(head, assume(bin(cfg.Ge, ref(i), k32(n))))
			g.depth--
		}
	}
	return prev
}

func genProgram(seed int64) *cfg.Program { return genProgramN(seed, 25) }

// genProgramN generates a program of about n statements.
func genProgramN(seed int64, n int) *cfg.Program {
	r := rand.New(rand.NewSource(seed))
	g := &gen{r: r, b: newIRB(), n: n}
	for k := range 2 + r.Intn(3) {
		t := genTypes[r.Intn(len(genTypes))]
		if r.Intn(3) == 0 {
			g.vars = append(g.vars, g.b.global(fmt.Sprintf("g%d", k), t, g.constOf(t)))
		} else {
			g.vars = append(g.vars, g.b.local(fmt.Sprintf("v%d", k), t))
		}
	}
	if r.Intn(2) == 0 {
		g.arr, g.cell = g.b.array("a", cfg.Int32, 3, []cfg.InitValue{{Offset: 4, Type: cfg.Int32, Value: k32(int64(r.Intn(20) - 10))}})
	}
	last := g.b.cur.Entry
	for g.n > 0 {
		last = g.block(last)
	}
	g.b.exit(last)
	return g.b.fix()
}

// concrete reads the values of a cell's variables in state st of thread
// th; for a summary cell, one point per element.
func concreteCell(m *interp.Machine, st *interp.State, th *interp.Thread, c *Cell) [][]int64 {
	pt := make([]int64, len(c.Vars))
	for i, v := range c.Vars {
		switch {
		case v.Mem != nil:
			in := st.Inst(m.StaticInstance(v.Mem))
			var out [][]int64
			size := v.Type.Size()
			for off := v.Offset; off+size <= in.Size; off += size {
				out = append(out, []int64{loadInt(in.Bytes[off:off+size], v.Type)})
				if !v.Summary {
					break
				}
			}
			return out // memory cells are singleton cells in these programs
		case v.Scope == cfg.Global:
			pt[i] = st.Globals[m.GlobalIndex(v)].N
		default:
			pt[i] = th.Locals[m.LocalIndex(v)].N
		}
	}
	return [][]int64{pt}
}

func loadInt(b []byte, t cfg.Type) int64 {
	var u uint64
	for i := len(b) - 1; i >= 0; i-- {
		u = u<<8 | uint64(b[i])
	}
	if t.Signed && t.Bits < 64 && u&(1<<(t.Bits-1)) != 0 {
		u |= ^uint64(0) << t.Bits
	}
	return int64(u)
}

func contains(v domains.Value, pt []int64) bool {
	for i, x := range pt {
		v = v.Assume(domains.LinCons{Expr: domains.LinExpr{Terms: []domains.Term{{Var: i, Coef: 1}}, Const: -x}, Op: domains.EqZero})
	}
	return !v.IsBottom()
}

func TestSoundnessRandomPrograms(t *testing.T) {
	nProg := 150
	if testing.Short() {
		nProg = 30
	}
	havocVals := []int64{0, 1, -1, 2, 5, 127, 128, 255, -128, 1000, 2147483647, -2147483648, 4294967295}
	states, proven := 0, 0
	defer func(k int) { phiThreshold = k }(phiThreshold)
	for seed := int64(1); seed <= int64(nProg); seed++ {
		// Every other program with φ locations at every merge.
		phiThreshold = []int{8, 2}[seed%2]
		p := genProgram(seed)
		m, err := interp.New(p, interp.Options{KeepDeadEnds: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, dom := range bothDomains {
			for _, rel := range []bool{false, true} {
				// Every third program in the linear-time DFS order of
				// large graphs instead of Bourdoncle's.
				var opts []Option
				if seed%3 == 0 {
					opts = append(opts, WithOrderThreshold(0))
				}
				var s *Solver
				if seed%5 == 0 {
					// Every fifth with the short ladder from the first
					// widening (SetFastWidening, used for programs on
					// the flow-insensitive game).
					s = NewSolver(New(p, NewPartition(p, rel)), dom, opts...)
					s.SetFastWidening(true)
					if err := s.Solve(context.Background()); err != nil {
						t.Fatal(err)
					}
				} else {
					s = solve(t, p, rel, dom, opts...)
				}
				for _, c := range p.Checks {
					if st, _ := s.CheckStatus(c); st == Proven {
						proven++
					}
				}
				r := rand.New(rand.NewSource(seed * 7919))
				for run := 0; run < 12; run++ {
					st, err := m.Initial()
					if err != nil {
						t.Fatal(err)
					}
					for step := 0; step < 300 && st != nil; step++ {
						th := st.Threads[0]
						inv := s.At(th.Loc)
						states++
						if inv.IsBottom() {
							t.Fatalf("seed %d %s rel=%v: reached %v (%s) whose invariant is ⊥", seed, dom.Name(), rel, th.Loc, ActionString(th.Loc.Act))
						}
						for _, c := range inv.Cells() {
							cell := s.part.Cell(c)
							for _, pt := range concreteCell(m, st, th, cell) {
								if !contains(inv.Cell(c), pt) {
									t.Fatalf("seed %d %s rel=%v: at %v (%s) cell %s = %v outside %s", seed, dom.Name(), rel, th.Loc, ActionString(th.Loc.Act), cell, pt, inv)
								}
							}
						}
						moves := m.Enabled(st)
						if len(moves) == 0 {
							break
						}
						mv := moves[r.Intn(len(moves))]
						if mv.Waits && r.Intn(10) != 0 { // prefer moves that do not get stuck
							for _, m2 := range moves {
								if !m2.Waits {
									mv = m2
									break
								}
							}
						}
						mv.Value = havocVals[r.Intn(len(havocVals))]
						next, ev := m.Step(st, mv)
						switch ev.Kind {
						case interp.CheckFailed:
							if status, msg := s.CheckStatus(ev.Check); status != Unproven {
								t.Fatalf("seed %d %s rel=%v: check %s failed in a run but is %v (%s)", seed, dom.Name(), rel, ev.Check.Msg, status, msg)
							}
						case interp.ErrorEvent:
							t.Fatalf("seed %d: runtime error %s at %v (%s)", seed, ev.Text, ev.Loc, ActionString(ev.Loc.Act))
						}
						st = next
					}
				}
			}
		}
	}
	t.Logf("%d programs, %d concrete states checked, %d proven check verdicts", nProg, states, proven)
}
