package interference

import "chorus/cfg"

// Owned globals and the assumes they refute.
//
// A global register g is owned by a template T when every location that
// writes it (cfg.ModVars; assumes, checks and InitGlobals aside) lies in
// T, and T has at most one instance in any execution: main (never
// spawned), or a template with one spawn site, in main, off main's
// cycles, not a callback (!Unbounded). Then, in every execution, g's
// value when T's thread stands at a location l is the value T's own path
// gave it: g starts at its initial value (InitGlobals runs before any
// spawn; T is the only writer and starts once) and only T's own steps
// change it. A forward must-constant analysis over T's locations (entry:
// the initial value, or unknown before main's InitGlobals; a strong
// assignment of a constant expression sets it; any other write makes it
// unknown; the meet keeps equal constants) gives values every execution
// has there.
//
// An assume of T whose condition evaluates to false under those values
// (cfg.EvalFlags: it reads only owned globals with known values and
// constants) fails in every execution: no thread passes it. SV-COMP
// pthread-ext/19_time_var_mutex: `if (inode == 0) {...busy = 1...}` in the
// only thread that writes inode, which is 0 there; the else branch, dead,
// carried busy's old value past the write of busy = 1.
//
// The data flow graph uses it (analysis/owned.go, dfg.Graph.DropSequential):
// a sequential edge all of whose CFG paths pass such an assume stands for
// no execution. Sound for any number of threads: the argument is about
// T's single thread and its own writes only.

// maxOwnedLocs bounds the programs the rule looks at (the path checks of
// the edges it may drop cost a walk of the template each).
const maxOwnedLocs = 3000

// OwnedDeadAssumes returns, by location ID, the assumes that fail in
// every execution by the owned-globals argument above (nil when none).
// unsound (the oracle's mutation test only) lets templates with several
// instances own globals too.
func OwnedDeadAssumes(p *cfg.Program, unsound bool) []bool {
	if len(p.Templates) == 0 || len(p.Locs) > maxOwnedLocs || mainSpawned(p) {
		return nil
	}
	owner := map[*cfg.Var]*cfg.Template{}
	bad := map[*cfg.Var]bool{}
	for _, l := range p.Locs {
		switch l.Act.(type) {
		case *cfg.Assume, *cfg.CheckAct, *cfg.InitGlobals:
			continue
		}
		for _, v := range cfg.ModVars(l.Act) {
			if v.Scope != cfg.Global {
				continue
			}
			if t, ok := owner[v]; ok && t != l.Template {
				bad[v] = true
			}
			owner[v] = l.Template
		}
	}
	byTemplate := map[*cfg.Template][]*cfg.Var{}
	for v, t := range owner {
		if bad[v] || v.IsCell() || v.ThreadLocal || v.Type.Kind != cfg.IntType || t == nil {
			continue
		}
		if t != p.Templates[0] && t.Unbounded && !unsound {
			continue
		}
		if _, ok := initConst(v); !ok {
			continue
		}
		byTemplate[t] = append(byTemplate[t], v)
	}
	// Only globals some assume reads matter.
	read := map[*cfg.Var]bool{}
	for _, l := range p.Locs {
		if a, ok := l.Act.(*cfg.Assume); ok {
			for _, vs := range byTemplate {
				for _, v := range vs {
					if exprReads(a.Cond, v) {
						read[v] = true
					}
				}
			}
		}
	}
	var dead []bool
	for t, vs := range byTemplate {
		var used []*cfg.Var
		for _, v := range vs {
			if read[v] {
				used = append(used, v)
			}
		}
		if len(used) == 0 || t.Entry == nil {
			continue
		}
		for _, l := range ownedDeadIn(p, t, used) {
			if dead == nil {
				dead = make([]bool, len(p.Locs))
			}
			dead[l.ID] = true
		}
	}
	return dead
}

// initConst is the initial value of a global register.
func initConst(v *cfg.Var) (int64, bool) {
	if v.Init == nil {
		return 0, true
	}
	k, ok := v.Init.(*cfg.Const)
	if !ok || k.Type.Kind != cfg.IntType {
		return 0, false
	}
	return k.Value, true
}

// ownedDeadIn runs the must-constant analysis of vars over t and returns
// its refuted assumes.
func ownedDeadIn(p *cfg.Program, t *cfg.Template, vars []*cfg.Var) []*cfg.Loc {
	isVar := map[*cfg.Var]bool{}
	for _, v := range vars {
		isVar[v] = true
	}
	initEnv := cfg.FlagEnv(nil)
	for _, v := range vars {
		c, _ := initConst(v)
		initEnv = initEnv.With(v.ID, c)
	}
	type state struct {
		set bool
		env cfg.FlagEnv
	}
	st := make([]state, len(p.Locs))
	transfer := func(l *cfg.Loc, in cfg.FlagEnv) cfg.FlagEnv {
		switch a := l.Act.(type) {
		case *cfg.InitGlobals:
			return initEnv
		case *cfg.Assume, *cfg.CheckAct:
			return in
		case *cfg.Assign:
			if v := cfg.StrongTarget(a.Dst); v != nil && isVar[v] {
				x, ok := cfg.EvalFlags(a.Src, in)
				out := cfg.FlagEnv(nil)
				for _, w := range vars {
					if w == v {
						if ok {
							out = out.With(w.ID, x)
						}
						continue
					}
					if y, ok := cfg.EvalFlags(&cfg.VarRef{Var: w}, in); ok {
						out = out.With(w.ID, y)
					}
				}
				return out
			}
		}
		// Any other write of an owned global makes it unknown.
		mod := cfg.ModVars(l.Act)
		out := in
		for _, v := range mod {
			if isVar[v] {
				out = dropVar(out, vars, v)
			}
		}
		return out
	}
	entry := initEnv
	if t == p.Templates[0] {
		entry = nil // before InitGlobals: unknown
	}
	st[t.Entry.ID] = state{true, entry}
	work := []*cfg.Loc{t.Entry}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		if a, ok := l.Act.(*cfg.Assume); ok {
			if x, ok := cfg.EvalFlags(a.Cond, st[l.ID].env); ok && x == 0 {
				continue // refuted: nothing passes
			}
		}
		out := transfer(l, st[l.ID].env)
		for _, s := range l.Succs {
			if s.Template != t {
				continue
			}
			if !st[s.ID].set {
				st[s.ID] = state{true, out}
				work = append(work, s)
				continue
			}
			m := st[s.ID].env.Meet(out)
			if len(m) != len(st[s.ID].env) {
				st[s.ID].env = m
				work = append(work, s)
			}
		}
	}
	var dead []*cfg.Loc
	for _, l := range t.Locs {
		a, ok := l.Act.(*cfg.Assume)
		if !ok || !st[l.ID].set {
			continue
		}
		if x, ok := cfg.EvalFlags(a.Cond, st[l.ID].env); ok && x == 0 {
			dead = append(dead, l)
		}
	}
	return dead
}

// dropVar returns env without v's binding.
func dropVar(env cfg.FlagEnv, vars []*cfg.Var, v *cfg.Var) cfg.FlagEnv {
	out := cfg.FlagEnv(nil)
	for _, w := range vars {
		if w == v {
			continue
		}
		if y, ok := cfg.EvalFlags(&cfg.VarRef{Var: w}, env); ok {
			out = out.With(w.ID, y)
		}
	}
	return out
}
