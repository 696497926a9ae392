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
	cells := 0
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
		for _, l := range p.Locs {
			for _, x := range e.usesOf(l) {
				if seen[x] {
					continue
				}
				seen[x] = true
				want := flatReadersScan(e, int32(x))
				got := e.flat.readersOf(int32(x))
				for k := range 2 {
					if !slices.Equal(got[k], want[k]) {
						t.Errorf("%s: cell %d: readers[%d] = %v, the scan gives %v", names[i], x, k, locIDs(got[k]), locIDs(want[k]))
					}
				}
				cells++
			}
		}
		e.Close()
	}
	if cells < 100 {
		t.Fatalf("only %d cells compared", cells)
	}
	t.Logf("%d programs, %d cells compared", len(progs), cells)
}

func locIDs(ls []*cfg.Loc) []int {
	out := make([]int, len(ls))
	for i, l := range ls {
		out[i] = l.ID
	}
	return out
}
