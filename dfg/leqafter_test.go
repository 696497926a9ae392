package dfg

import (
	"slices"
	"testing"

	"chorus/domains"
)

// TestLeqAfterComparesTheDiff pins State.leqAfter against leq on states
// derived from a location's last evaluation: a cell of the diff above the
// state's value must make it false, one below it true, and cells outside
// the diff (prev's own objects, below the state) are not compared.
func TestLeqAfterComparesTheDiff(t *testing.T) {
	for _, dom := range bothDomains {
		p, _ := loopProgram()
		s := solve(t, p, false, dom)
		var prev *State
		idx := -1
		for _, l := range p.Locs {
			st := s.At(l)
			if st.bottom {
				continue
			}
			for i, v := range st.vals {
				if v.Dim() > 0 && !v.IsTop() && !v.IsBottom() {
					prev, idx = st, i
					break
				}
			}
			if prev != nil {
				break
			}
		}
		if prev == nil {
			t.Fatalf("%s: no location with a bounded cell", dom.Name())
		}
		// (a state with an id, as evalCells makes them)
		prev = &State{s: s, loc: prev.loc, cells: prev.cells, vals: slices.Clone(prev.vals)}
		s.derive(prev, nil)
		derived := func(v domains.Value) *State {
			st := &State{s: s, loc: prev.loc, cells: prev.cells, vals: slices.Clone(prev.vals)}
			st.vals[idx] = v
			s.derive(st, prev)
			st.diff = []int32{int32(idx)}
			return st
		}
		top := dom.Top(prev.vals[idx].Dim())
		up := derived(top) // ⊤ in the diff: not below prev's state
		if up.leqAfter(prev, prev) || up.leq(prev) {
			t.Errorf("%s: a diff cell above the state passed leqAfter", dom.Name())
		}
		same := derived(prev.vals[idx].Join(prev.vals[idx])) // a copy: equal, another object
		if !same.leqAfter(prev, prev) || !same.leq(prev) {
			t.Errorf("%s: a diff cell equal to the state failed leqAfter", dom.Name())
		}
		if !prev.leqAfter(prev, prev) {
			t.Errorf("%s: the last evaluation itself failed leqAfter", dom.Name())
		}
		// o above prev everywhere (⊤ at idx): up is below it.
		o := derived(top)
		if !up.leqAfter(o, prev) || !up.leq(o) {
			t.Errorf("%s: a state below a larger one failed leqAfter", dom.Name())
		}
	}
}
