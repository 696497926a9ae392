package gen

// Instances returns, per thread template, an upper bound on the number of
// its instances (main spawns some Count times; a thread that spawns
// multiplies by its own instances). Templates no one spawns get 0.
func (p *Prog) Instances() map[string]int {
	n := map[string]int{}
	// Spawns go from main or a template to a later template only, so one
	// pass in order sees every spawner's bound before its children.
	for _, fn := range p.Funcs() {
		mine := 1
		if fn != p.Main {
			mine = n[fn.Name]
		}
		walkStmts(fn.Body, func(s Stmt) {
			if sp, ok := s.(*Spawn); ok {
				n[sp.Thread] += mine * sp.Count
			}
		})
	}
	return n
}

// MaxSteps returns an upper bound on the number of statements all threads
// together execute in any run (loops count Bound times).
func (p *Prog) MaxSteps() int {
	inst := p.Instances()
	total := 0
	for _, fn := range p.Funcs() {
		k := 1
		if fn != p.Main {
			k = inst[fn.Name]
		}
		total += k * p.blockSteps(fn.Body)
	}
	return total
}

// blockSteps bounds the statements a run of b executes; a call counts its
// helper's body and the return.
func (p *Prog) blockSteps(b []Stmt) int {
	n := 0
	for _, s := range b {
		switch s := s.(type) {
		case *Loop:
			n += 1 + s.Bound*p.blockSteps(s.Body)
		case *If:
			n += 1 + max(p.blockSteps(s.Then), p.blockSteps(s.Else))
		case *Call:
			n += 2
			if h := p.Helper(s.Func); h != nil {
				n += p.blockSteps(h.Body)
			}
		default:
			n++
			for _, c := range children(s) {
				n += p.blockSteps(c)
			}
		}
	}
	return n
}

// MaxMagnitude returns an upper bound on |v| for every value any variable
// holds in any run, and on every intermediate result, when the program was
// generated without AllowOverflow. Let V bound initial values, nondet
// ranges and what an unsigned char holds (255), K the constants in
// expressions, M the largest modulus. A "% M" result is below M; every other
// assignment copies a value or adds at most K to one, so values stay below
// B = max(V, K, M) + steps*K, and an intermediate (y+z, y*c) is at most
// B*max(2, K).
func (p *Prog) MaxMagnitude() int64 {
	var v, k, m int64 = 1, 1, 1
	vars := func(vs []*Var) {
		for _, x := range vs {
			v = max(v, abs(x.Init))
			if x.Byte {
				v = max(v, 255)
			}
		}
	}
	vars(p.Globals)
	var rec func(e Expr)
	rec = func(e Expr) {
		switch e := e.(type) {
		case *Const:
			k = max(k, abs(e.V))
		case *Bin:
			if c, ok := e.R.(*Const); ok && e.Op == "%" {
				m = max(m, abs(c.V))
				rec(e.L)
				return
			}
			rec(e.L)
			rec(e.R)
		case *Not:
			rec(e.X)
		}
	}
	for _, fn := range p.Funcs() {
		vars(fn.Locals)
		if fn.Ret != nil {
			rec(fn.Ret)
		}
	}
	p.Walk(func(_ *Func, s Stmt) {
		for _, e := range Exprs(s) {
			rec(e)
		}
		if h, ok := s.(*Havoc); ok {
			v = max(v, abs(h.Lo), abs(h.Hi))
		}
	})
	b := max(v, k, m) + int64(p.MaxSteps())*k
	return b * max(2, k)
}

// NondetRange returns the smallest interval holding every nondet range, to
// configure an explorer's havoc values (explore.Options.HavocMin/Max); it
// is 0, 0 when the program has no Havoc.
func (p *Prog) NondetRange() (lo, hi int64) {
	first := true
	p.Walk(func(_ *Func, s Stmt) {
		if h, ok := s.(*Havoc); ok {
			if first {
				lo, hi, first = h.Lo, h.Hi, false
			}
			lo, hi = min(lo, h.Lo), max(hi, h.Hi)
		}
	})
	return lo, hi
}
