package confirm

// Symbolic inputs: the explorer tries only a few values per input
// (__VERIFIER_nondet_*), which misses bugs that need one particular value.
// For a check the explorer reached without seeing it fail, solveInputs
// runs the reaching schedule again, concretely, and alongside it builds,
// over one unknown per havoc step, the values of registers and memory as
// Z3 terms; every assume and check on the way must hold again, the
// target check must fail, and each input must lie in its type's range. A
// model of that path condition gives new input values for the same
// schedule. The terms are over mathematical integers and ignore
// wrap-around and casts (an approximation), which is why the new schedule
// is only reported after it replays concretely in the interpreter
// (replay): a wrong model costs nothing but the attempt.

import (
	"fmt"
	"math/big"
	"time"

	"chorus/cfg"
	"chorus/cfg/interp"
	"chorus/internal/z3"
)

type memKey struct {
	inst interp.InstID
	off  int64
	size int64
}

type regKey struct {
	thread interp.ThreadID
	v      *cfg.Var
}

type symState struct {
	ctx  *z3.Context
	m    *interp.Machine
	s    *interp.State
	regs map[regKey]z3.Int
	mem  map[memKey]z3.Int
}

// solveTowards looks for input values that take thread from where it
// stands after prefix along the control flow graph to check's location
// (following dist, each location's distance to it) and make the check
// fail there. It is a concolic loop: run prefix and the path concretely
// with the current values, collecting the path condition; where an
// assume blocks, or at the check, ask Z3 for values satisfying
// everything so far (and the check's failure), and run again with them.
// It returns the schedule (prefix, then the path) with the values found.
func solveTowards(p *cfg.Program, prefix []interp.Step, thread interp.ThreadID, check *cfg.Check, dist []int, k int, lazy bool, deadline time.Time) (out []interp.Step, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			ok = false // an expression the symbolic evaluation does not know
		}
	}()
	m, err := interp.New(p, machineOptions(k, lazy))
	if err != nil {
		return nil, false
	}
	ctx := z3.NewContext(nil)
	defer ctx.Close()
	ctx.SetTimeout(500)
	values := map[int]int64{} // by step index: the havoc values to use
	for i, st := range prefix {
		values[i] = st.Value
	}
	for iter := 0; iter < 12 && time.Now().Before(deadline); iter++ {
		s, err := m.Initial()
		if err != nil {
			return nil, false
		}
		solver := z3.NewSolver(ctx)
		st := &symState{ctx: ctx, m: m, s: s, regs: map[regKey]z3.Int{}, mem: map[memKey]z3.Int{}}
		inputs := map[int]z3.Int{}
		var sched []interp.Step
		// solve asks for values meeting the path condition so far.
		solve := func() bool {
			sat, err := solver.Check()
			if err != nil || !sat {
				return false
			}
			model := solver.Model()
			for i, x := range inputs {
				v, ok := model.Eval(x, true).(z3.Int)
				if !ok {
					return false
				}
				n, isLit, fits := v.AsInt64()
				if !isLit || !fits {
					return false
				}
				values[i] = n
			}
			return true
		}
		blocked := false
		for i := 0; ; i++ {
			var step interp.Step
			if i < len(prefix) {
				step = prefix[i]
			} else {
				t := s.Thread(thread)
				if t == nil || t.Done || i > len(prefix)+400 {
					return nil, false
				}
				loc := t.Loc
				if c, isCheck := loc.Act.(*cfg.CheckAct); isCheck && c.Check == check {
					cond := st.expr(t, c.Cond)
					solver.Assert(cond.Eq(st.num(0)))
					if !solve() {
						return nil, false
					}
					sched = append(sched, interp.Step{Thread: thread, Loc: loc.ID, Pos: loc.Pos})
					for j := range sched {
						if v, ok := values[j]; ok {
							sched[j].Value = v
						}
					}
					return sched, true
				}
				if _, isAssume := loc.Act.(*cfg.Assume); !isAssume && len(m.ThreadMoves(s, thread)) == 0 {
					// waiting for another thread (a join, a lock, an
					// atomic section): let the first other thread that
					// can move do so
					var other *interp.Move
					for _, mv := range m.Enabled(s) {
						if mv.Thread != thread {
							other = &mv
							break
						}
					}
					if other == nil {
						return nil, false
					}
					ol := s.Thread(other.Thread).Loc
					step = interp.Step{Thread: other.Thread, Loc: ol.ID, Succ: other.Succ, Pos: ol.Pos}
				} else {
					succ := -1
					for j, n := range loc.Succs {
						if dist[n.ID] >= 0 && dist[n.ID] < dist[loc.ID] && (succ < 0 || dist[n.ID] < dist[loc.Succs[succ].ID]) {
							succ = j
						}
					}
					if succ < 0 {
						return nil, false
					}
					step = interp.Step{Thread: thread, Loc: loc.ID, Succ: succ, Pos: loc.Pos}
				}
			}
			step.Value = values[i]
			t := s.Thread(step.Thread)
			if t == nil {
				return nil, false
			}
			switch a := t.Loc.Act.(type) {
			case *cfg.Assume:
				solver.Assert(st.expr(t, a.Cond).NE(st.num(0)))
			case *cfg.CheckAct:
				solver.Assert(st.expr(t, a.Cond).NE(st.num(0)))
			case *cfg.Assign:
				st.assign(t, a.Dst, st.expr(t, a.Src))
			case *cfg.Havoc:
				x := ctx.IntConst(fmt.Sprintf("in%d", i))
				inputs[i] = x
				if r, isReg := a.Dst.(*cfg.VarRef); !isReg || r.Var.Mem != nil || a.Dst.ExprType().Kind != cfg.IntType {
					solver.Assert(x.Eq(st.num(step.Value))) // keep the concrete value
				} else {
					lo, hi := typeRange(a.Dst.ExprType())
					solver.Assert(x.GE(st.big(lo)))
					solver.Assert(x.LE(st.big(hi)))
				}
				st.assign(t, a.Dst, x)
			default:
				st.clobber(t, t.Loc.Act)
			}
			sched = append(sched, step)
			ns, ev := m.Step(s, interp.Move{Thread: step.Thread, Succ: step.Succ, Value: step.Value})
			if ns == nil || (ev.Kind != interp.NoEvent && ev.Kind != interp.OutputEvent) {
				// blocked (or failed) with these values: solve for the
				// path condition up to here, then run again
				blocked = true
				break
			}
			s = ns
			st.s = s
		}
		if !blocked || !solve() {
			return nil, false
		}
	}
	return nil, false
}

// distTo is, by location ID, the number of moves from each location of
// target's template to target along the control flow graph (-1: none).
func distTo(p *cfg.Program, target *cfg.Loc) []int {
	dist := make([]int, len(p.Locs))
	for i := range dist {
		dist[i] = -1
	}
	dist[target.ID] = 0
	queue := []*cfg.Loc{target}
	for len(queue) > 0 {
		l := queue[0]
		queue = queue[1:]
		for _, pr := range l.Preds {
			if dist[pr.ID] < 0 {
				dist[pr.ID] = dist[l.ID] + 1
				queue = append(queue, pr)
			}
		}
	}
	return dist
}

func typeRange(t cfg.Type) (*big.Int, *big.Int) {
	if t.Bits == 0 {
		return big.NewInt(-1 << 62), big.NewInt(1 << 62)
	}
	if t.Signed {
		lo := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits-1)))
		hi := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits-1)), big.NewInt(1))
		return lo, hi
	}
	return big.NewInt(0), new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(t.Bits)), big.NewInt(1))
}

func (st *symState) num(n int64) z3.Int { return st.ctx.FromInt(n, st.ctx.IntSort()).(z3.Int) }

func (st *symState) big(n *big.Int) z3.Int { return st.ctx.FromBigInt(n, st.ctx.IntSort()).(z3.Int) }

// concrete is e's value in the concrete run as a term (pointers panic:
// the caller gives up).
func (st *symState) concrete(t *interp.Thread, e cfg.Expr) z3.Int {
	v, err := st.m.Eval(st.s, t.ID, e)
	if err != nil || v.Obj != 0 {
		panic("not an integer")
	}
	if v.Big != nil {
		return st.big(v.Big)
	}
	return st.num(v.N)
}

func (st *symState) boolInt(b z3.Bool) z3.Int {
	return b.IfThenElse(st.num(1), st.num(0)).(z3.Int)
}

// expr is e's value as a term over the inputs.
func (st *symState) expr(t *interp.Thread, e cfg.Expr) z3.Int {
	if e.ExprType().Kind != cfg.IntType {
		return st.concrete(t, e)
	}
	switch e := e.(type) {
	case *cfg.VarRef:
		if x, ok := st.regs[regKey{st.owner(t, e.Var), e.Var}]; ok {
			return x
		}
		return st.concrete(t, e)
	case *cfg.Deref:
		if key, ok := st.address(t, e); ok {
			if x, ok := st.mem[key]; ok {
				return x
			}
		}
		return st.concrete(t, e)
	case *cfg.Cast:
		if e.X.ExprType().Kind != cfg.IntType {
			return st.concrete(t, e)
		}
		return st.expr(t, e.X)
	case *cfg.Unary:
		x := st.expr(t, e.X)
		switch e.Op {
		case cfg.Neg:
			return x.Neg()
		case cfg.Not:
			return st.boolInt(x.Eq(st.num(0)))
		}
		return st.concrete(t, e)
	case *cfg.Binary:
		if e.X.ExprType().Kind != cfg.IntType || e.Y.ExprType().Kind != cfg.IntType {
			return st.concrete(t, e)
		}
		x, y := st.expr(t, e.X), st.expr(t, e.Y)
		switch e.Op {
		case cfg.Add:
			return x.Add(y)
		case cfg.Sub:
			return x.Sub(y)
		case cfg.Mul:
			return x.Mul(y)
		case cfg.Eq:
			return st.boolInt(x.Eq(y))
		case cfg.Ne:
			return st.boolInt(x.NE(y))
		case cfg.Lt:
			return st.boolInt(x.LT(y))
		case cfg.Le:
			return st.boolInt(x.LE(y))
		case cfg.Gt:
			return st.boolInt(x.GT(y))
		case cfg.Ge:
			return st.boolInt(x.GE(y))
		case cfg.LAnd:
			return st.boolInt(x.NE(st.num(0)).And(y.NE(st.num(0))))
		case cfg.LOr:
			return st.boolInt(x.NE(st.num(0)).Or(y.NE(st.num(0))))
		}
		return st.concrete(t, e)
	}
	return st.concrete(t, e)
}

// owner is the thread whose copy of register v thread t uses (-1: a
// global register).
func (st *symState) owner(t *interp.Thread, v *cfg.Var) interp.ThreadID {
	if v.Scope == cfg.Global && !v.ThreadLocal {
		return -1
	}
	return t.ID
}

// address is the concrete location a Deref names.
func (st *symState) address(t *interp.Thread, d *cfg.Deref) (memKey, bool) {
	a, err := st.m.Eval(st.s, t.ID, d.Addr)
	if err != nil || a.Obj == 0 {
		return memKey{}, false
	}
	size := int64(d.Type.Bits / 8)
	return memKey{a.Obj, a.N, size}, true
}

// assign records that dst now holds val (before the concrete step).
func (st *symState) assign(t *interp.Thread, dst cfg.LValue, val z3.Int) {
	if dst.ExprType().Kind != cfg.IntType {
		st.clobberLV(t, dst)
		return
	}
	switch d := dst.(type) {
	case *cfg.VarRef:
		st.regs[regKey{st.owner(t, d.Var), d.Var}] = val
	case *cfg.Deref:
		key, ok := st.address(t, d)
		if !ok {
			panic("unknown address")
		}
		st.forget(key)
		st.mem[key] = val
	}
}

// forget drops the terms of memory overlapping key.
func (st *symState) forget(key memKey) {
	for k := range st.mem {
		if k.inst == key.inst && k.off < key.off+key.size && key.off < k.off+k.size {
			delete(st.mem, k)
		}
	}
}

// clobberLV makes dst concrete again (its term is dropped).
func (st *symState) clobberLV(t *interp.Thread, dst cfg.LValue) {
	switch d := dst.(type) {
	case *cfg.VarRef:
		delete(st.regs, regKey{st.owner(t, d.Var), d.Var})
	case *cfg.Deref:
		if key, ok := st.address(t, d); ok {
			st.forget(key)
		}
	}
}

// clobber drops the terms of what a concretely run action writes.
func (st *symState) clobber(t *interp.Thread, a cfg.Action) {
	switch a := a.(type) {
	case *cfg.Acquire:
		st.clobberLV(t, a.Lock)
	case *cfg.Release:
		st.clobberLV(t, a.Lock)
	case *cfg.Spawn:
		if a.Handle != nil {
			st.clobberLV(t, a.Handle)
		}
	case *cfg.Alloc:
		st.clobberLV(t, a.Dst)
	}
}
