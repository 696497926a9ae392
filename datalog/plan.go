package datalog

import (
	"fmt"
	"strings"
)

type stepKind uint8

const (
	stepPos stepKind = iota // iterate matching rows of a positive atom
	stepNeg                 // fail if the negated atom has a matching row
	stepNeq                 // fail if two values are equal
)

type rangeSel uint8

const (
	rangeOld   rangeSel = iota // rows [0, old)
	rangeDelta                 // rows [old, cur)
	rangeFull                  // rows [0, cur)
)

const (
	opBind       uint8 = iota // vars[slot] = t[col]
	opCheckSlot               // t[col] == vars[slot]
	opCheckConst              // t[col] == val
)

type colOp struct {
	op   uint8
	col  int32
	slot int32
	val  uint32
}

type step struct {
	kind   stepKind
	rel    *Relation
	st     *store // rel.st when the plan runs
	rng    rangeSel
	lo, hi int
	hix    *hashIndex  // lookup on the key columns, or nil
	bix    *btreeIndex // ordered alternative, or nil
	key    []arg       // key values, in index column order
	keyBuf []uint32
	ops    []colOp // for the columns not in the key
	// idxMask is the key's column set; the index is built on first use.
	idxMask uint32
	probe   bool  // every column bound: look the tuple up in the set
	args    []arg // stepNeg: the atom's arguments; stepNeq: the two sides
}

// plan is one semi-naive variant of a rule: positive atom delta reads the
// delta rows of its relation, atoms before it (in rule order) the old rows,
// atoms after it all rows. Any fixed order gives the standard
// decomposition full⋈full \ old⋈old = ∪_d old…old ⋈ Δ_d ⋈ full…full
// without deriving a combination twice.
type plan struct {
	rule  *Rule
	delta int
	steps []step
}

type stratumPlans struct {
	variants []*plan
	bodiless []*plan // rules without positive atoms: fire once per recomputation
}

// runnable reports whether every positive step has a non-empty row range.
func (pl *plan) runnable(b *bounds) bool {
	for i := range pl.steps {
		s := &pl.steps[i]
		if s.kind != stepPos {
			continue
		}
		id := s.rel.id
		var lo, hi int
		switch s.rng {
		case rangeOld:
			lo, hi = 0, b.old[id]
		case rangeDelta:
			lo, hi = b.old[id], b.cur[id]
		default:
			lo, hi = 0, b.cur[id]
		}
		if lo >= hi {
			return false
		}
	}
	return true
}

func (p *Program) planStratum(s *stratum) stratumPlans {
	var sp stratumPlans
	for _, ru := range s.rules {
		if ru.never {
			continue
		}
		if len(ru.pos) == 0 {
			sp.bodiless = append(sp.bodiless, p.planVariant(ru, -1))
			continue
		}
		for d := range ru.pos {
			sp.variants = append(sp.variants, p.planVariant(ru, d))
		}
	}
	return sp
}

// planVariant orders the join greedily: the delta atom first (it is the
// small, changing part), then repeatedly the atom with the most columns
// already bound (constants or bound variables) — an atom fully bound is a
// pure membership test and goes first — ties broken by smaller relation.
// Each joined atom with bound columns gets an index on exactly those
// columns; negations and inequalities run as soon as their variables are
// bound.
func (p *Program) planVariant(ru *Rule, delta int) *plan {
	pl := &plan{rule: ru, delta: delta}
	bound := make([]bool, ru.nvars)
	negDone := make([]bool, len(ru.neg))
	neqDone := make([]bool, len(ru.neqs))
	isBound := func(a arg) bool { return a.slot < 0 || bound[a.slot] }
	addFilters := func() {
		for i, c := range ru.neqs {
			if !neqDone[i] && isBound(c[0]) && isBound(c[1]) {
				neqDone[i] = true
				pl.steps = append(pl.steps, step{kind: stepNeq, args: c[:]})
			}
		}
		for i, n := range ru.neg {
			if negDone[i] {
				continue
			}
			ok := true
			for _, a := range n.args {
				ok = ok && isBound(a)
			}
			if ok {
				negDone[i] = true
				pl.steps = append(pl.steps, p.negStep(n))
			}
		}
	}
	addFilters()
	if delta < 0 {
		return pl
	}
	used := make([]bool, len(ru.pos))
	next := delta
	for {
		used[next] = true
		pl.steps = append(pl.steps, p.posStep(ru.pos[next], next, delta, bound))
		addFilters()
		best, bestAll, bestN, bestSize := -1, false, -1, 0
		for j, a := range ru.pos {
			if used[j] {
				continue
			}
			nb, all := 0, true
			for _, x := range a.args {
				switch {
				case x.slot == argConst || x.slot >= 0 && bound[x.slot]:
					nb++
				case x.slot >= 0:
					all = false
				}
			}
			size := a.rel.st.n
			better := best < 0 ||
				all && !bestAll ||
				all == bestAll && (nb > bestN || nb == bestN && size < bestSize)
			if better {
				best, bestAll, bestN, bestSize = j, all, nb, size
			}
		}
		if best < 0 {
			break
		}
		next = best
	}
	return pl
}

func (p *Program) posStep(a cAtom, j, delta int, bound []bool) step {
	s := step{kind: stepPos, rel: a.rel}
	switch {
	case j < delta:
		s.rng = rangeOld
	case j == delta:
		s.rng = rangeDelta
	default:
		s.rng = rangeFull
	}
	useIndex := j != delta // the delta atom is scanned
	var mask uint32
	local := map[int32]bool{}
	for c, x := range a.args {
		switch {
		case x.slot == argAny:
		case x.slot == argConst:
			if useIndex {
				mask |= 1 << c
				s.key = append(s.key, x)
			} else {
				s.ops = append(s.ops, colOp{op: opCheckConst, col: int32(c), val: x.val})
			}
		case bound[x.slot]:
			if useIndex {
				mask |= 1 << c
				s.key = append(s.key, x)
			} else {
				s.ops = append(s.ops, colOp{op: opCheckSlot, col: int32(c), slot: x.slot})
			}
		case local[x.slot]:
			s.ops = append(s.ops, colOp{op: opCheckSlot, col: int32(c), slot: x.slot})
		default:
			local[x.slot] = true
			s.ops = append(s.ops, colOp{op: opBind, col: int32(c), slot: x.slot})
		}
	}
	for sl := range local {
		bound[sl] = true
	}
	// The index is built when the variant first runs (runner.run): a
	// variant that never runs (say, the one for a delta that stays empty)
	// must not make every insert maintain an index nobody reads.
	s.idxMask = mask
	if useIndex && popcount(mask) == a.rel.arity {
		// Fully bound: the relation's own hash set answers (no index).
		s.idxMask, s.probe = 0, true
	}
	s.keyBuf = make([]uint32, len(s.key))
	return s
}

// negStep checks a negated atom against the whole relation (complete: it
// lies in a lower stratum or is EDB). Fully bound atoms probe the
// relation's set, atoms of wildcards only test emptiness, others use a
// hash index on the non-wildcard columns.
func (p *Program) negStep(a cAtom) step {
	s := step{kind: stepNeg, rel: a.rel, args: a.args}
	var mask uint32
	for c, x := range a.args {
		if x.slot != argAny {
			mask |= 1 << c
			s.key = append(s.key, x)
		}
	}
	switch {
	case popcount(mask) == a.rel.arity:
		s.probe = true
	case mask != 0:
		s.idxMask = mask // hash index built on first run
	}
	s.keyBuf = make([]uint32, len(s.key))
	return s
}

// Explain describes how Evaluate runs the rules: the strata in evaluation
// order and, for every semi-naive variant of every rule, the join order,
// the row range each atom reads (Δ delta, old, full) and how it is
// accessed (scan, index lookup on some columns, probe of the whole tuple).
// Join orders depend on relation sizes at the time of the call.
func (p *Program) Explain() (string, error) {
	if !p.strataOK {
		if err := p.stratify(); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	for _, s := range p.strata {
		fmt.Fprintf(&b, "stratum %d: %s\n", s.index, relNames(s.rels))
		for _, ru := range s.rules {
			fmt.Fprintf(&b, "  %s\n", ru)
			if ru.never {
				b.WriteString("    never fires (contradictory constraints)\n")
				continue
			}
			var pls []*plan
			if len(ru.pos) == 0 {
				pls = append(pls, p.planVariant(ru, -1))
			}
			for d := range ru.pos {
				pls = append(pls, p.planVariant(ru, d))
			}
			for _, pl := range pls {
				var parts []string
				for i := range pl.steps {
					parts = append(parts, pl.describe(&pl.steps[i]))
				}
				if len(parts) == 0 {
					parts = append(parts, "fact")
				}
				fmt.Fprintf(&b, "    %s\n", strings.Join(parts, " → "))
			}
		}
	}
	return b.String(), nil
}

func relNames(rs []*Relation) string {
	var ns []string
	for _, r := range rs {
		ns = append(ns, r.name)
	}
	return strings.Join(ns, ", ")
}

func (pl *plan) argString(a arg) string {
	switch a.slot {
	case argConst:
		return fmt.Sprint(a.val)
	case argAny:
		return "_"
	}
	return pl.rule.varNames[a.slot]
}

func (pl *plan) atomString(rel *Relation, args []arg) string {
	var as []string
	for _, a := range args {
		as = append(as, pl.argString(a))
	}
	return rel.name + "(" + strings.Join(as, ", ") + ")"
}

func (pl *plan) describe(s *step) string {
	switch s.kind {
	case stepNeq:
		return pl.argString(s.args[0]) + " != " + pl.argString(s.args[1])
	case stepNeg:
		return "!" + pl.atomString(s.rel, s.args)
	}
	// Recover the atom's arguments: key columns then ops, by column.
	cols := make([]string, s.rel.arity)
	for i := range cols {
		cols[i] = "_"
	}
	k := 0
	for c := 0; c < s.rel.arity; c++ {
		if s.idxMask&(1<<c) != 0 || s.probe {
			cols[c] = pl.argString(s.key[k])
			k++
		}
	}
	for _, op := range s.ops {
		switch op.op {
		case opCheckConst:
			cols[op.col] = fmt.Sprint(op.val)
		default:
			cols[op.col] = pl.rule.varNames[op.slot]
		}
	}
	rng := [...]string{"old ", "Δ", ""}[s.rng]
	how := "scan"
	switch {
	case s.probe:
		how = "probe"
	case s.idxMask != 0:
		var ic []string
		for c := 0; c < s.rel.arity; c++ {
			if s.idxMask&(1<<c) != 0 {
				ic = append(ic, fmt.Sprint(c))
			}
		}
		how = "index[" + strings.Join(ic, ",") + "]"
	}
	return fmt.Sprintf("%s %s%s(%s)", how, rng, s.rel.name, strings.Join(cols, ", "))
}
