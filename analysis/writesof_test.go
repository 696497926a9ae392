package analysis

import (
	"testing"

	"chorus/cfg"
	"chorus/dfg"
)

// A memoized Writes result matches exactly the (source, cell) sequences
// equal to its own: short ones by their keys, long ones (past
// maxKeptKeys, not kept) by length and a second hash.
func TestWritesOfSame(t *testing.T) {
	locs := make([]*cfg.Loc, 100)
	for i := range locs {
		locs[i] = &cfg.Loc{ID: i}
	}
	seq := func(n, flip int) []dfg.Edge {
		es := make([]dfg.Edge, n)
		for i := range es {
			es[i] = dfg.Edge{Src: locs[(i*7)%100], Cell: dfg.CellID(1 + i%5), Interference: true}
			if i == flip {
				es[i].Cell++
			}
		}
		return es
	}
	for _, n := range []int{3, maxKeptKeys, maxKeptKeys + 1, 3 * maxKeptKeys} {
		w := newWritesOf(seq(n, -1), nil)
		if (w.keys != nil) != (n <= maxKeptKeys) {
			t.Errorf("n=%d: keys kept %v", n, w.keys != nil)
		}
		if !w.same(seq(n, -1)) {
			t.Errorf("n=%d: an equal sequence does not match", n)
		}
		for _, flip := range []int{0, n / 2, n - 1} {
			if w.same(seq(n, flip)) {
				t.Errorf("n=%d: a sequence differing at %d matches", n, flip)
			}
		}
		if w.same(seq(n-1, -1)) || w.same(seq(n+1, -1)) {
			t.Errorf("n=%d: a sequence of another length matches", n)
		}
	}
	// Two sequences with the same elements in another order.
	a := seq(maxKeptKeys+2, -1)
	b := append([]dfg.Edge(nil), a...)
	b[0], b[1] = b[1], b[0]
	if newWritesOf(a, nil).same(b) {
		t.Error("a reordered long sequence matches")
	}
}

// Past the memo budget Writes recomputes: the same lists.
func TestWritesMatchReferencePastMemoBudget(t *testing.T) {
	defer func(old int) { writesMemoBudget = old }(writesMemoBudget)
	writesMemoBudget = 3
	TestWritesMatchReference(t)
}
