package dfg

import (
	"context"
	"math/rand"
	"testing"

	"chorus/cfg"
)

// TruthMemo must answer exactly as State.Truth: every condition of the
// program (assumes, checks) asked at every location, in a random order
// and twice (the second time from the memo), on random programs in both
// domains, relational and not.
func TestTruthMemoEqualsTruth(t *testing.T) {
	asked, hits := 0, 0
	for seed := int64(1); seed <= 30; seed++ {
		p := genProgramN(seed, 50)
		conds := conditionsOf(p)
		r := rand.New(rand.NewSource(seed))
		for _, dom := range bothDomains {
			s := solve(t, p, seed%2 == 0, dom)
			memo := s.NewTruthMemo()
			for pass := range 2 {
				for _, i := range r.Perm(len(p.Locs) * len(conds)) {
					l, c := p.Locs[i/len(conds)], conds[i%len(conds)]
					st := s.At(l)
					n := len(memo.m.m)
					got, want := memo.Truth(st, c), st.Truth(c)
					if got != want {
						t.Fatalf("seed %d %s pass %d: location %d, condition %v: memo %v, Truth %v", seed, dom.Name(), pass, l.ID, c, got, want)
					}
					asked++
					if len(memo.m.m) == n && !st.IsBottom() {
						hits++
					}
				}
			}
		}
	}
	if hits == 0 || hits == asked {
		t.Fatalf("memo hits %d of %d questions: the test does not exercise both paths", hits, asked)
	}
}

// The guarded part is per location: two locations with the same values
// for d, one guarded by d != 0 and one not, must get different answers
// from the same memo entry.
func TestTruthMemoKeepsGuardsPerLocation(t *testing.T) {
	b := newIRB()
	d := b.local("d", cfg.Int32)
	c1 := b.check(cfg.DivByZeroCheck, bin(cfg.Ne, ref(d), k32(0)))
	_, l := b.seq(b.cur.Entry, havoc(ref(d)))
	_, l1 := b.seq(l, assume(bin(cfg.Ne, ref(d), k32(0))))
	j, jl := b.seq(nil, c1)
	link(l1, j)
	b.exit(jl)
	p := b.fix()
	for _, dom := range bothDomains {
		s := solve(t, p, false, dom)
		memo := s.NewTruthMemo()
		cond := c1.Cond
		for _, loc := range p.Locs {
			st := s.At(loc)
			if got, want := memo.Truth(st, cond), st.Truth(cond); got != want {
				t.Fatalf("%s: location %d: memo %v, Truth %v", dom.Name(), loc.ID, got, want)
			}
		}
		if got := memo.Truth(s.At(c1.Check.Loc), cond); got != True {
			t.Fatalf("%s: the guarded check: %v, want true", dom.Name(), got)
		}
	}
}

// Across rounds (Age between incremental Solves that add edges, as the
// analysis does) the memo must still answer exactly as State.Truth: an
// answer of the previous generation is reused only for the very value
// objects it was computed from, and the guard (whose sources change with
// the new edges) is decided anew from the sources' current values. The
// test also requires that some answers do come from the old generation
// (values the re-solve left untouched), or it would not exercise it.
func TestTruthMemoAcrossRounds(t *testing.T) {
	asked, oldHits, guardQuestions := 0, 0, 0
	for seed := int64(1); seed <= 30; seed++ {
		p := genProgramN(seed, 50)
		conds := conditionsOf(p)
		r := rand.New(rand.NewSource(seed))
		for _, dom := range bothDomains {
			part := NewPartition(p, seed%2 == 0)
			g := New(p, part)
			s := NewSolver(g, dom)
			memo := s.NewTruthMemo()
			for round := range 4 {
				if round > 0 {
					addRandomEdges(g, part, r, 5)
				}
				if err := s.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
				memo.Age()
				for _, l := range p.Locs {
					st := s.At(l)
					for _, c := range conds {
						_, inOld := memoLookup(memo, st, c)
						got, want := memo.Truth(st, c), st.Truth(c)
						if got != want {
							t.Fatalf("seed %d %s round %d: location %d, condition %v: memo %v, Truth %v", seed, dom.Name(), round, l.ID, c, got, want)
						}
						asked++
						if inOld {
							oldHits++
						}
					}
				}
				guardQuestions += len(memo.excl.m)
			}
		}
	}
	if oldHits == 0 || oldHits == asked {
		t.Fatalf("%d of %d answers from the previous generation: the test does not exercise both paths", oldHits, asked)
	}
	if guardQuestions == 0 {
		t.Fatal("no guard asked the memo about a source's value: the test does not exercise excludes")
	}
}

// memoLookup reports whether tm holds an answer for (st, cond) in its
// current generation and in its previous one.
func memoLookup(tm *TruthMemo, st *State, cond cfg.Expr) (inNew, inOld bool) {
	if st.bottom {
		return false, false
	}
	var vars []*cfg.Var
	vars = exprVars(vars, cond)
	var cells []CellID
	for _, v := range vars {
		cells = append(cells, tm.s.part.CellOf(v))
	}
	cells = sortedSet(cells)
	if len(cells) > truthMemoCells {
		return false, false
	}
	k := truthKey{cond: cond}
	for i, c := range cells {
		if v, ok := st.value(c); ok {
			k.vals[i] = v
		}
	}
	e, ok := tm.m.m[k]
	inNew = ok && e.gen == tm.m.gen
	inOld = ok && e.gen+1 == tm.m.gen
	return inNew, inOld
}
