package interp

import "chorus/cfg"

// Dead registers (Options.ForgetDead).
//
// A local register is dead at a location when every path from there
// writes it before reading it: its value can never influence anything
// again. Two states that differ only in dead registers therefore have the
// same futures (the same checks fail, the same errors and deadlocks
// happen), and an explorer that zeroes dead registers merges them. The
// machine keeps the invariant "every register dead at the thread's
// location is zero": a thread starts with all registers zero, and a move
// from l to its successor s zeroes the registers that may be non-zero
// after it — those live at l or written by l's action — but are dead at
// s. Only the registers of the moving thread change liveness.

// deadOnEdges computes, per location ID and successor index, the
// register indices (Thread.Locals) to zero after that move.
func (m *Machine) deadOnEdges() [][][]int32 {
	p := m.Prog
	n := len(p.Locs)
	words := func(t *cfg.Template) int { return (len(m.localVars[t.ID]) + 63) / 64 }
	reads := make([][]uint64, n)
	writes := make([][]uint64, n)
	live := make([][]uint64, n)
	for i, l := range p.Locs {
		w := words(l.Template)
		reads[i], writes[i], live[i] = make([]uint64, w), make([]uint64, w), make([]uint64, w)
		m.regUses(l, reads[i], writes[i])
	}
	// Backward fixpoint: live(l) = reads(l) ∪ (∪ live(s) − strong writes(l)).
	work := make([]*cfg.Loc, 0, n)
	queued := make([]bool, n)
	for i := n - 1; i >= 0; i-- {
		work = append(work, p.Locs[i])
		queued[i] = true
	}
	tmp := []uint64{}
	for len(work) > 0 {
		l := work[len(work)-1]
		work = work[:len(work)-1]
		queued[l.ID] = false
		w := len(live[l.ID])
		tmp = append(tmp[:0], make([]uint64, w)...)
		for _, s := range l.Succs {
			for k := range tmp {
				tmp[k] |= live[s.ID][k]
			}
		}
		changed := false
		for k := range tmp {
			v := tmp[k]&^writes[l.ID][k] | reads[l.ID][k]
			if v != live[l.ID][k] {
				live[l.ID][k] = v
				changed = true
			}
		}
		if changed {
			for _, pr := range l.Preds {
				if !queued[pr.ID] {
					queued[pr.ID] = true
					work = append(work, pr)
				}
			}
		}
	}
	out := make([][][]int32, n)
	for i, l := range p.Locs {
		if len(l.Succs) == 0 {
			continue
		}
		out[i] = make([][]int32, len(l.Succs))
		for j, s := range l.Succs {
			var dead []int32
			for k := range live[i] {
				bits := (live[i][k] | writes[i][k] | reads[i][k]) &^ live[s.ID][k]
				for b := 0; b < 64; b++ {
					if bits&(1<<uint(b)) != 0 {
						dead = append(dead, int32(k*64+b))
					}
				}
			}
			out[i][j] = dead
		}
	}
	return out
}

// regUses sets the bits of the local registers l's action reads and of
// those it overwrites for sure.
func (m *Machine) regUses(l *cfg.Loc, reads, writes []uint64) {
	set := func(bits []uint64, v *cfg.Var) {
		if v.Mem != nil || v.Template != l.Template {
			return
		}
		if i := m.localIdx[v.ID]; i >= 0 {
			bits[i/64] |= 1 << uint(i%64)
		}
	}
	var read func(e cfg.Expr)
	read = func(e cfg.Expr) {
		switch e := e.(type) {
		case *cfg.VarRef:
			set(reads, e.Var)
		case *cfg.Deref:
			read(e.Addr)
		case *cfg.Unary:
			read(e.X)
		case *cfg.Binary:
			read(e.X)
			read(e.Y)
		case *cfg.Cast:
			read(e.X)
		}
	}
	// dst: a register is overwritten, a memory destination reads its
	// address.
	dst := func(lv cfg.LValue) {
		if r, ok := lv.(*cfg.VarRef); ok {
			set(writes, r.Var)
			return
		}
		read(lv)
	}
	switch a := l.Act.(type) {
	case *cfg.Assign:
		read(a.Src)
		dst(a.Dst)
	case *cfg.Assume:
		read(a.Cond)
	case *cfg.Havoc:
		dst(a.Dst)
	case *cfg.CheckAct:
		read(a.Cond)
	case *cfg.Acquire:
		read(a.Lock)
	case *cfg.Release:
		read(a.Lock) // a register lock word is written, not killed: keep it live
	case *cfg.Spawn:
		read(a.Fn)
		read(a.Arg)
		if a.Handle != nil {
			dst(a.Handle)
		}
	case *cfg.Join:
		read(a.Handle)
	case *cfg.Alloc:
		read(a.Size)
		dst(a.Dst)
	case *cfg.Output:
		for _, x := range a.Args {
			read(x)
		}
	}
	// A register both read and written stays live above the location.
	for k := range writes {
		writes[k] &^= reads[k]
	}
}

// zeroDead zeroes the registers of thread t dead after the move from
// location l to successor succ (Options.ForgetDead).
func (m *Machine) zeroDead(t *Thread, l *cfg.Loc, succ int) {
	if m.dead == nil || m.dead[l.ID] == nil {
		return
	}
	vars := m.localVars[t.Template.ID]
	for _, i := range m.dead[l.ID][succ] {
		t.Locals[i] = wrapNum(num{}, vars[i].Type)
	}
}
