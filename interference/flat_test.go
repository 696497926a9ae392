package interference

import (
	"context"
	"slices"
	"testing"

	"chorus/cfg"
	"chorus/dfg"
)

// flatReadersScan is the flow-insensitive game's readers as first
// written: every position live for x, its location and its run's
// locations that use x. readersOf must list the same locations in the
// same order.
func flatReadersScan(e *Engine, x int32) [2][]*cfg.Loc {
	live := e.computeLiveness(int(x))
	var r [2][]*cfg.Loc
	uses := e.usesMark(int(x))
	for b, l := range e.pos.locs {
		if !live.has(b) {
			continue
		}
		k := 1
		if e.inMain[b] {
			k = 0
		}
		if uses[l.ID] {
			r[k] = append(r[k], l)
		}
		for _, pl := range e.pos.preRun[b] {
			if uses[pl.ID] {
				r[k] = append(r[k], pl)
			}
		}
	}
	return r
}

// TestFlatReadersMatchScan: the readers read off the users index equal
// the scan over live positions, for every cell of the test programs, the
// SV-COMP tasks and generated programs (with locks, so protection takes
// part). A reader the index missed would be a missing interference edge.
func TestFlatReadersMatchScan(t *testing.T) {
	names, progs := readerKillPrograms(t)
	cells, shared := 0, 0
	for i, p := range progs {
		part := dfg.NewPartition(p, false)
		e, err := New(p, dfgCells{dfg.New(p, part), part}, WithoutZ3(), WithFlowInsensitive())
		if err != nil {
			continue // (programs the engine refuses are not about readers)
		}
		if _, _, _, err := e.Round(context.Background(), allUnknown{}); err != nil {
			e.Close()
			t.Fatalf("%s: %v", names[i], err)
		}
		seen := map[int]bool{}
		memo := map[string][2][]*cfg.Loc{}
		before := cells
		for _, l := range p.Locs {
			for _, x := range e.usesOf(l) {
				if seen[x] {
					continue
				}
				seen[x] = true
				want := flatReadersScan(e, int32(x))
				got := e.flat.readersOf(int32(x))
				// and through the memo of a round (shared by the
				// cells with the same users: a wrong key hands one
				// cell another's readers)
				e.flat.readers = memo
				gotMemo := e.flat.readersOf(int32(x))
				e.flat.readers = nil
				for k := range 2 {
					if !slices.Equal(got[k], want[k]) {
						t.Errorf("%s: cell %d: readers[%d] = %v, the scan gives %v", names[i], x, k, locIDs(got[k]), locIDs(want[k]))
					}
					if !slices.Equal(gotMemo[k], want[k]) {
						t.Errorf("%s: cell %d: readers[%d] through the memo = %v, the scan gives %v", names[i], x, k, locIDs(gotMemo[k]), locIDs(want[k]))
					}
				}
				cells++
			}
		}
		shared += cells - before - len(memo)
		e.Close()
	}
	if shared == 0 {
		t.Fatalf("no two cells shared their readers: the memo went untested")
	}
	if cells < 100 {
		t.Fatalf("only %d cells compared", cells)
	}
	t.Logf("%d programs, %d cells compared, %d shared reader lists", len(progs), cells, shared)
}

func locIDs(ls []*cfg.Loc) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = l.ID
	}
	return out
}

// TestFlatBlocksAreTheRule: the blocks of a flow-insensitive round,
// expanded, are exactly the rule's edges edge(W, X, B) :- mod(W, X),
// canrun(W), B reads X (useful), !(inMain(W) ∧ inMain(B)), computed here
// pair by pair with the readers of the scan. A missing edge is a value of
// another thread a reader never sees; an extra one, a value main's reader
// gets from main's own later write (imprecision the blocks must not add).
func TestFlatBlocksAreTheRule(t *testing.T) {
	names, progs := readerKillPrograms(t)
	total := 0
	for i, p := range progs {
		part := dfg.NewPartition(p, false)
		e, err := New(p, dfgCells{dfg.New(p, part), part}, WithoutZ3(), WithFlowInsensitive())
		if err != nil {
			continue
		}
		got := map[[3]int]bool{}
		for round := range 3 {
			_, blocks, _, err := e.Round(context.Background(), &weakening{round: round})
			if err != nil {
				e.Close()
				t.Fatalf("%s: %v", names[i], err)
			}
			for _, b := range blocks {
				for _, s := range b.Srcs {
					for _, d := range b.Dsts {
						got[[3]int{s.ID, b.Cell, d.ID}] = true
					}
				}
			}
		}
		want := map[[3]int]bool{}
		k := len(e.classes)
		for w, l := range e.pos.locs {
			if !e.compat[w*k+e.enClass[w]] {
				continue
			}
			for _, x := range e.mod[w] {
				r := flatReadersScan(e, int32(x))
				for kind, ls := range r {
					if kind == 0 && e.inMain[w] {
						continue // main's write, main's reader
					}
					for _, d := range ls {
						want[[3]int{l.ID, x, d.ID}] = true
					}
				}
			}
		}
		for key := range want {
			if !got[key] {
				t.Errorf("%s: edge %v of the rule is in no block", names[i], key)
			}
		}
		for key := range got {
			if !want[key] {
				t.Errorf("%s: block edge %v is not one of the rule's", names[i], key)
			}
		}
		total += len(want)
		e.Close()
	}
	if total == 0 {
		t.Fatal("no edges compared")
	}
	t.Logf("%d edges compared", total)
}
