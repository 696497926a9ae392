package cfg

import "testing"

// TestSpliceAfterEntryEverySuccessor: with an entry that branches, every
// path from the entry runs the spliced chain before any old successor (a
// chain put before one successor only would let the other branch read the
// thread-local's stale value).
func TestSpliceAfterEntryEverySuccessor(t *testing.T) {
	tm := &Template{Name: "t"}
	mk := func() *Loc {
		l := &Loc{ID: len(tm.Locs), Template: tm, Act: &Skip{}}
		tm.Locs = append(tm.Locs, l)
		return l
	}
	entry, a, b, exit := mk(), mk(), mk(), mk()
	tm.Entry, tm.Exit = entry, exit
	link(entry, a)
	link(entry, b)
	link(a, exit)
	link(b, exit)
	first, last := mk(), mk()
	link(first, last)
	spliceAfterEntry(tm, first, last)
	if len(entry.Succs) != 1 || entry.Succs[0] != first {
		t.Fatalf("entry's successors %v, want only the chain's first", entry.Succs)
	}
	if len(last.Succs) != 2 || last.Succs[0] != a || last.Succs[1] != b {
		t.Fatalf("chain's last leads to %v, want both old successors in order", last.Succs)
	}
	for _, s := range []*Loc{a, b} {
		if len(s.Preds) != 1 || s.Preds[0] != last {
			t.Errorf("L%d's predecessors %v, want only the chain's last", s.ID, s.Preds)
		}
	}
}
