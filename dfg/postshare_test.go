package dfg

import (
	"testing"

	"chorus/domains"
)

// TestKeepIdentical: a post's cell takes the state's value object only
// when the action's result is the very same box (holes included), never
// an equal-looking one that differs, nor an octagon (whose Equal is
// semantic).
func TestKeepIdentical(t *testing.T) {
	x := domains.NewIntervalValue([]domains.Interval{domains.NewInterval(-5, 5)})
	st := &State{cells: []CellID{3}, vals: []domains.Value{x}}
	same := domains.NewIntervalValue([]domains.Interval{domains.NewInterval(-5, 5)})
	if got := keepIdentical(same, st, 3); got != domains.Value(x) {
		t.Errorf("an identical box was not replaced by the state's")
	}
	narrower := domains.NewIntervalValue([]domains.Interval{domains.NewInterval(-5, 4)})
	if got := keepIdentical(narrower, st, 3); got != domains.Value(narrower) {
		t.Errorf("a different box was replaced by the state's")
	}
	holed := same.Assume(domains.LinCons{Expr: domains.LinExpr{Terms: []domains.Term{{Var: 0, Coef: 1}}, Const: 0}, Op: domains.NeZero})
	if got := keepIdentical(holed, st, 3); got != holed {
		t.Errorf("a box with a hole the state's lacks was replaced by the state's: %s vs %s", holed.String(nil), x.String(nil))
	}
	if got := keepIdentical(same, st, 4); got != domains.Value(same) {
		t.Errorf("a cell the state does not track took another cell's value")
	}
	o := domains.Octagons.Top(1)
	so := &State{cells: []CellID{3}, vals: []domains.Value{o}}
	if got := keepIdentical(domains.Octagons.Top(1), so, 3); got == o {
		t.Errorf("an octagon was replaced by the state's")
	}
}
