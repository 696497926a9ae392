package interference

import (
	"math"
	"sort"

	"chorus/cfg"
)

// Counters: bounds on globals that every thread changes only by
// read-modify-write increments (count++ / count-- in an atomic section or
// under a lock held by every writer), from each thread's own
// contribution and the locks the reader holds.
//
// A global X is a counter when it is an integer register or non-summary
// global cell with a constant initial value, not thread-local, and every
// location that may write it (cfg.ModVars, assumes and checks aside) is
// an increment: `X := t + c` (or `t - c`, `c + t`) with t a local
// register of X's type and c a constant, reached along a chain of single
// predecessors from `t := X` that writes neither t nor X, and along which
// no other thread can write X: every location after the read up to the
// write is inside an atomic section (Loc.Atomic: no other thread moves),
// or surely holds one lock that every concurrent write of X holds, or
// is main's code before its first spawn. So each increment adds exactly
// c to X (two's complement, as every write does).
//
// Ghost argument. Let d_t be the sum of the c of the increments thread t
// has executed. By induction on the execution, X = X0 + Σ_t d_t modulo
// 2^bits (X0 the initial value; InitGlobals runs before any increment).
// d_t depends on t's path only, so D(q), the set of sums along the CFG
// paths from t's template entry to q (an interval, widened to ±∞ on
// cycles), holds d_t whenever t stands at q (a terminated thread stands at
// its template's Exit).
//
// For a reader r standing at b with must-lockset H, every other thread t
// stands somewhere (not yet started: d_t = 0):
//   - if t surely holds a lock of H at its location q, it cannot (r holds
//     that lock: mutual exclusion of the must-lockset, lockset.go);
//   - a template with at most one instance (!Unbounded, not r's own
//     template) adds hull({0} ∪ D(q)) over its locations q compatible
//     with H; one with at most k instances (instanceBounds: k spawn
//     sites, all in main, off main's cycles, each naming it alone by
//     address) adds k times that hull, k - 1 times for r's own template
//     (each instance is somewhere, not started, or terminated);
//   - in an Unbounded template, a thread at q that surely holds some lock
//     adds at most what one holder of that lock adds: each such thread is
//     charged to the first lock of must(q), and at most one thread holds
//     a lock at a time, so the sum of those threads lies in
//     Σ_l hull({0} ∪ ⋃{D(q) : l = first(must(q))});
//   - threads of an Unbounded template at a q holding no lock may be
//     arbitrarily many: any D(q) other than {0} makes that direction of
//     the bound infinite.
// Adding r's own D(b) gives an interval for X0 + Σ_t d_t; when it lies
// within X's type, X (equal to it modulo 2^bits) is in it. A half-bounded
// interval gives nothing: the unbounded side may wrap into the other. At
// main's InitGlobals location X is not yet initialized: no bound there. Nothing depends
// on the number of threads, and nested locks only shrink H's complement;
// a lock released on some paths only is not in the must-lockset there.
// The bound uses neither Φ nor the game, so meeting states with it
// (dfg.WithFacts) is sound at every step of the iteration.

// CounterFact bounds counter Var at Loc (see above).
type CounterFact struct {
	Loc    *cfg.Loc
	Var    *cfg.Var
	Lo, Hi int64
}

// WithCounters turns the counter bounds on (default) or off.
func WithCounters(on bool) Option { return func(e *Engine) { e.noCounters = !on } }

// WithUnsoundCounterInstances is UNSOUND, for testing the oracle only:
// instanceBounds counts a spawn site on a cycle of main as one instance.
func WithUnsoundCounterInstances() Option {
	return func(e *Engine) { e.unsoundCounterInstances = true }
}

// WithUnsoundCounterLocks is UNSOUND, for testing the oracle only: a
// thread that surely holds any lock is left out of the counter bounds,
// whether or not the reader holds that lock.
func WithUnsoundCounterLocks() Option { return func(e *Engine) { e.unsoundCounterLocks = true } }

// ival is an interval of int64 with ±∞ (math.MinInt64/MaxInt64).
type ival struct{ lo, hi int64 }

const ivInfLo, ivInfHi = math.MinInt64, math.MaxInt64

// bigBound: sums beyond it count as infinite (no overflow of int64).
const bigBound = int64(1) << 40

func addBound(a, b int64) int64 {
	switch {
	case a == ivInfLo || b == ivInfLo:
		return ivInfLo
	case a == ivInfHi || b == ivInfHi:
		return ivInfHi
	}
	s := a + b
	if s > bigBound {
		return ivInfHi
	}
	if s < -bigBound {
		return ivInfLo
	}
	return s
}

func (a ival) add(b ival) ival  { return ival{addBound(a.lo, b.lo), addBound(a.hi, b.hi)} }
func (a ival) hull(b ival) ival { return ival{min(a.lo, b.lo), max(a.hi, b.hi)} }

// counterIncr is an increment of a counter: X += c at a location.
type counterIncr struct {
	v *cfg.Var
	c int64
}

// CounterFacts returns the counter bounds of the program (nil when off).
func (e *Engine) CounterFacts() []CounterFact {
	p := e.prog
	if e.noCounters || len(p.Templates) == 0 || mainSpawned(p) {
		return nil
	}
	early := preSpawnMain(p)
	incr, vars := e.counterIncrements(early)
	if len(vars) == 0 {
		return nil
	}
	var out []CounterFact
	var bounds map[*cfg.Template]int
	for _, x := range vars {
		x0, ok := counterInit(x)
		if !ok {
			continue
		}
		D := ownContribution(p, x, incr)
		if bounds == nil {
			bounds = instanceBounds(p, e.unsoundCounterInstances)
		}
		lo, hi := typeBounds(x.Type)
		cache := map[string]ival{}
		for _, b := range p.Locs {
			db, ok := D[b.ID]
			if _, init := b.Act.(*cfg.InitGlobals); !ok || init {
				continue // unreachable, or X not yet initialized
			}
			key := string(bitsKey(e.lockAt[b.ID]))
			if bounds[b.Template] > 0 {
				key += "/" + string(appendInt(nil, b.Template.ID))
			}
			others, ok := cache[key]
			if !ok {
				others = e.othersContribution(b, D, bounds)
				cache[key] = others
			}
			s := ival{x0, x0}.add(db).add(others)
			if s.lo == ivInfLo || s.hi == ivInfHi || s.lo < lo || s.hi > hi {
				continue
			}
			out = append(out, CounterFact{Loc: b, Var: x, Lo: s.lo, Hi: s.hi})
		}
	}
	return out
}

func bitsKey(b bitset) []byte {
	out := make([]byte, 0, 8*len(b))
	for _, w := range b {
		for i := 0; i < 8; i++ {
			out = append(out, byte(w>>(8*i)))
		}
	}
	return out
}

// othersContribution bounds Σ d_t over the threads other than one standing
// at b (the cases of the comment above).
func (e *Engine) othersContribution(b *cfg.Loc, D map[int]ival, bounds map[*cfg.Template]int) ival {
	held := e.lockAt[b.ID]
	excluded := func(q *cfg.Loc) bool {
		m := e.lockAt[q.ID]
		for i := range m {
			if e.unsoundCounterLocks && m[i] != 0 {
				return true
			}
			if m[i]&held[i] != 0 {
				return true
			}
		}
		return false
	}
	sum := ival{0, 0}
	perLock := map[int]ival{}
	for _, t := range e.prog.Templates {
		// n: the instances of t besides r, when t has at most
		// bounds[t] of them (instanceBounds); each adds at most
		// hull({0} ∪ D(q)) over its locations q (below).
		n := bounds[t] // 0: unbounded
		if n > 0 && t == b.Template {
			n--
			if n == 0 {
				continue // r is its only instance
			}
		}
		term := ival{0, 0}
		for _, q := range t.Locs {
			dq, ok := D[q.ID]
			if !ok || excluded(q) {
				continue
			}
			if n > 0 {
				term = term.hull(dq)
				continue
			}
			l := firstBit(e.lockAt[q.ID])
			if l < 0 {
				if dq.lo < 0 {
					sum.lo = ivInfLo
				}
				if dq.hi > 0 {
					sum.hi = ivInfHi
				}
				continue
			}
			perLock[l] = perLock[l].hull(dq) // the zero value is {0}
		}
		for i := 0; i < n; i++ {
			sum = sum.add(term)
		}
	}
	ls := make([]int, 0, len(perLock))
	for l := range perLock {
		ls = append(ls, l)
	}
	sort.Ints(ls)
	for _, l := range ls {
		sum = sum.add(perLock[l])
	}
	return sum
}

func firstBit(b bitset) int {
	for i, w := range b {
		if w != 0 {
			for k := 0; k < 64; k++ {
				if w&(1<<uint(k)) != 0 {
					return i*64 + k
				}
			}
		}
	}
	return -1
}

// counterCandidate reports whether x may be a counter by its kind alone.
func counterCandidate(x *cfg.Var) bool {
	if x == nil || x.Scope != cfg.Global || x.ThreadLocal || x.Summary || x.Type.Kind != cfg.IntType {
		return false
	}
	return x.Mem == nil || x.Mem.Kind == cfg.GlobalObject
}

// counterInit returns x's constant initial value.
func counterInit(x *cfg.Var) (int64, bool) {
	if x.Mem == nil {
		if x.Init == nil {
			return 0, true
		}
		c, ok := x.Init.(*cfg.Const)
		if !ok || c.Type.Kind != cfg.IntType {
			return 0, false
		}
		return c.Value, true
	}
	size := x.Type.Size()
	val, found := int64(0), false
	for _, iv := range x.Mem.Init {
		isz := iv.Type.Size()
		if iv.Offset+isz <= x.Offset || x.Offset+size <= iv.Offset {
			continue // no overlap
		}
		c, ok := iv.Value.(*cfg.Const)
		if found || !ok || iv.Offset != x.Offset || iv.Type != x.Type || c.Type.Kind != cfg.IntType {
			return 0, false
		}
		val, found = c.Value, true
	}
	return val, true
}

// counterIncrements finds the counters and their increments by location
// ID (see the comment at the top).
func (e *Engine) counterIncrements(early []bool) (map[int]counterIncr, []*cfg.Var) {
	p := e.prog
	bad := map[*cfg.Var]bool{}
	incr := map[int]counterIncr{}
	chains := map[int][]*cfg.Loc{}
	for _, l := range p.Locs {
		switch l.Act.(type) {
		case *cfg.Assume, *cfg.CheckAct, *cfg.InitGlobals:
			continue
		}
		for _, x := range cfg.ModVars(l.Act) {
			if bad[x] || !counterCandidate(x) {
				continue
			}
			c, chain, ok := incrementOf(l, x)
			if !ok {
				bad[x] = true
				continue
			}
			incr[l.ID] = counterIncr{x, c}
			chains[l.ID] = chain
		}
	}
	// The locks every concurrent write of each counter holds.
	prot := map[*cfg.Var]bitset{}
	for id, in := range incr {
		if bad[in.v] || early[id] {
			continue
		}
		b, ok := prot[in.v]
		if !ok {
			prot[in.v] = append(bitset(nil), e.lockAt[id]...)
			continue
		}
		for i := range b {
			b[i] &= e.lockAt[id][i]
		}
	}
	for id, in := range incr {
		if bad[in.v] || e.chainExclusive(chains[id], prot[in.v], early) {
			continue
		}
		bad[in.v] = true
	}
	var vars []*cfg.Var
	seen := map[*cfg.Var]bool{}
	for id, in := range incr {
		if bad[in.v] {
			delete(incr, id)
			continue
		}
		if !seen[in.v] {
			seen[in.v] = true
			vars = append(vars, in.v)
		}
	}
	sort.Slice(vars, func(i, j int) bool { return vars[i].ID < vars[j].ID })
	return incr, vars
}

// chainExclusive reports whether no other thread can write the counter
// while a thread stands at the locations of chain (those after the read,
// up to the write): all atomic, all before main's first spawn, or one
// lock of prot surely held at all of them.
func (e *Engine) chainExclusive(chain []*cfg.Loc, prot bitset, early []bool) bool {
	atomic, pre := true, true
	common := append(bitset(nil), prot...)
	for _, l := range chain {
		atomic = atomic && l.Atomic
		pre = pre && early[l.ID]
		for i := range common {
			common[i] &= e.lockAt[l.ID][i]
		}
	}
	return atomic || pre || firstBit(common) >= 0
}

// incrementOf matches l as an increment of x: x := t ± c, t := x read
// along single predecessors that write neither t nor x. It returns c and
// the locations after the read up to l.
func incrementOf(l *cfg.Loc, x *cfg.Var) (int64, []*cfg.Loc, bool) {
	a, ok := l.Act.(*cfg.Assign)
	if !ok || cfg.StrongTarget(a.Dst) != x {
		return 0, nil, false
	}
	bin, ok := a.Src.(*cfg.Binary)
	if !ok || bin.Type != x.Type || (bin.Op != cfg.Add && bin.Op != cfg.Sub) {
		return 0, nil, false
	}
	reg := func(e cfg.Expr) *cfg.Var {
		if r, ok := e.(*cfg.VarRef); ok && r.Var.Scope == cfg.Local && r.Var.Mem == nil && r.Var.Type == x.Type {
			return r.Var
		}
		return nil
	}
	t, k := reg(bin.X), bin.Y
	if t == nil && bin.Op == cfg.Add {
		t, k = reg(bin.Y), bin.X
	}
	kc, ok := k.(*cfg.Const)
	if t == nil || !ok || kc.Value > bigBound || kc.Value < -bigBound {
		return 0, nil, false
	}
	c := kc.Value
	if bin.Op == cfg.Sub {
		c = -c
	}
	chain := []*cfg.Loc{l}
	for cur := l; len(chain) <= 16; {
		if len(cur.Preds) != 1 {
			return 0, nil, false
		}
		pr := cur.Preds[0]
		if ra, ok := pr.Act.(*cfg.Assign); ok {
			if r, ok := ra.Dst.(*cfg.VarRef); ok && r.Var == t && cfg.StrongTarget(ra.Src) == x {
				return c, chain, true
			}
		}
		switch pr.Act.(type) {
		case *cfg.Assume, *cfg.CheckAct:
			// constrain, write nothing
		default:
			for _, w := range cfg.ModVars(pr.Act) {
				if w == t || w == x {
					return 0, nil, false
				}
			}
		}
		chain = append(chain, pr)
		cur = pr
	}
	return 0, nil, false
}

// ownContribution computes D: for each location reachable from its
// template's entry, the interval of the sums of x's increments along the
// CFG paths from the entry (absent: unreachable).
func ownContribution(p *cfg.Program, x *cfg.Var, incr map[int]counterIncr) map[int]ival {
	D := map[int]ival{}
	changes := map[int]int{}
	for _, t := range p.Templates {
		if t.Entry == nil {
			continue
		}
		D[t.Entry.ID] = ival{0, 0}
		work := []*cfg.Loc{t.Entry}
		for len(work) > 0 {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			out := D[l.ID]
			if in, ok := incr[l.ID]; ok && in.v == x {
				out = out.add(ival{in.c, in.c})
			}
			for _, s := range l.Succs {
				old, ok := D[s.ID]
				nv := out
				if ok {
					nv = old.hull(out)
					if nv == old {
						continue
					}
					if changes[s.ID]++; changes[s.ID] > 4 {
						if nv.lo < old.lo {
							nv.lo = ivInfLo
						}
						if nv.hi > old.hi {
							nv.hi = ivInfHi
						}
					}
				}
				D[s.ID] = nv
				work = append(work, s)
			}
		}
	}
	return D
}

// typeBounds returns the range of an integer type.
func typeBounds(t cfg.Type) (int64, int64) {
	bits := t.Bits
	if bits <= 0 || bits > 64 {
		return 0, -1
	}
	if t.Signed {
		if bits == 64 {
			return math.MinInt64 + 1, math.MaxInt64 - 1
		}
		return -(int64(1) << (bits - 1)), int64(1)<<(bits-1) - 1
	}
	if bits >= 63 {
		return 0, math.MaxInt64 - 1
	}
	return 0, int64(1)<<bits - 1
}

// instanceBounds returns, per template, a bound on its instances in any
// execution (absent or 0: unbounded; main 1): 1 for a template that is
// not Unbounded (one spawn site, in main, off main's cycles, not a
// callback); for an Unbounded one, the number of its spawn sites when
// every one of them lies in main, off main's cycles, names the template
// alone by its address (a callback spawn's function is a havocked
// pointer) and main is never spawned: each such site runs at most once,
// so it starts at most one thread. (A spawn by another template, or on a
// cycle of main, may run any number of times.)
func instanceBounds(p *cfg.Program, unsound bool) map[*cfg.Template]int {
	out := map[*cfg.Template]int{}
	if len(p.Templates) == 0 || mainSpawned(p) {
		return out
	}
	main := p.Templates[0]
	out[main] = 1
	sites := map[*cfg.Template]int{}
	bad := map[*cfg.Template]bool{}
	var cyc map[*cfg.Loc]int
	for _, l := range p.Locs {
		sp, ok := l.Act.(*cfg.Spawn)
		if !ok {
			continue
		}
		_, direct := sp.Fn.(*cfg.AddrOf)
		if cyc == nil && l.Template == main {
			cyc = cfg.CyclicComponents(main)
		}
		_, onCycle := cyc[l]
		for _, t := range sp.Targets {
			if t == nil {
				continue
			}
			sites[t]++
			if unsound {
				onCycle = false // the mutation: a site on a cycle counts once
			}
			if l.Template != main || onCycle || !direct || len(sp.Targets) != 1 {
				bad[t] = true
			}
		}
	}
	for _, t := range p.Templates[1:] {
		switch {
		case !t.Unbounded:
			out[t] = 1
		case !bad[t] && sites[t] > 0:
			out[t] = sites[t]
		}
	}
	return out
}
