package dfg

import (
	"chorus/cfg"
	"chorus/domains"
)

// TruthMemo answers State.Truth for many locations, remembering the part
// of each answer that depends only on values: refining a state by cond
// and by its negation, and the domain's Entails, read nothing but the
// values of the cells cond reads (frameFor builds its frame from them
// alone), so two states holding the very same value objects for those
// cells get the same answer there. Values are immutable and the solver
// passes one value object on through many locations (a post passes
// untouched cells through, a single edge's join is the value itself, an
// incremental evaluation keeps unchanged cells), so the interference
// engine's signatures, which ask every condition at every game position,
// mostly ask again what they asked before (pcwd: 300,000 questions, 45,000
// distinct). The location-dependent part (State.guarded) is evaluated on
// every call, as Truth does. The keys hold the value objects, so an
// address is never reused for another value while its entry lives.
//
// Results are those of State.Truth exactly. A TruthMemo is not safe for
// concurrent use; drop it (or Reset it) to free its entries.
type TruthMemo struct {
	s     *Solver
	cells map[cfg.Expr][]CellID // per condition: frameFor's cells
	m     map[truthKey]valueTruth
}

// truthMemoCells bounds the cells of a memoized condition (the key holds
// one value per cell); conditions over more cells are not memoized.
const truthMemoCells = 4

type truthKey struct {
	cond cfg.Expr
	vals [truthMemoCells]domains.Value // by frameFor's cell; nil: not tracked
}

// NewTruthMemo returns an empty memo for s's states.
func (s *Solver) NewTruthMemo() *TruthMemo {
	return &TruthMemo{s: s, cells: map[cfg.Expr][]CellID{}, m: map[truthKey]valueTruth{}}
}

// Reset forgets the memoized answers.
func (tm *TruthMemo) Reset() { clear(tm.m) }

// Truth is st.Truth(cond).
func (tm *TruthMemo) Truth(st *State, cond cfg.Expr) Truth {
	if st.bottom {
		return Bottom
	}
	if st.s != tm.s {
		return st.Truth(cond)
	}
	cells, ok := tm.cells[cond]
	if !ok {
		var vars []*cfg.Var
		vars = exprVars(vars, cond)
		for _, v := range vars {
			cells = append(cells, tm.s.part.CellOf(v))
		}
		cells = sortedSet(cells)
		tm.cells[cond] = cells
	}
	if len(cells) > truthMemoCells {
		return st.Truth(cond)
	}
	k := truthKey{cond: cond}
	for i, c := range cells {
		if v, ok := st.value(c); ok {
			k.vals[i] = v
		}
	}
	vt, ok := tm.m[k]
	if !ok {
		vt = st.valueTruth(cond)
		tm.m[k] = vt
	}
	return st.finishTruth(cond, vt)
}
