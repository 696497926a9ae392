package dfg

import (
	"context"
	"math/rand"
	"testing"

	"chorus/cfg"
)

// TruthStamp's promise: when a location's stamp is the same after a Solve
// as after an earlier one, State.Truth answers every condition there as
// then. Random programs in both domains, relational and not, get random
// edges between Solves (new edges into a location, and sources whose
// posts change while the location's own state may stay); every condition
// of the program is asked at every location after every Solve and
// compared with the answers under the same stamp. The test also requires
// that many stamps do stay (or it would check nothing), and that some
// answer changed under a changed stamp (or the rounds changed nothing).
func TestTruthStampCoversTruth(t *testing.T) {
	same, sameHalf, changed := 0, 0, 0
	for seed := int64(1); seed <= 40; seed++ {
		p := genProgramN(seed, 50)
		conds := conditionsOf(p)
		r := rand.New(rand.NewSource(seed))
		for _, dom := range bothDomains {
			part := NewPartition(p, seed%2 == 0)
			g := New(p, part)
			s := NewSolver(g, dom)
			ts := s.NewTruthStamper(conds)
			half := len(conds) / 2 // a stamper of fewer conditions reads fewer cells
			tsHalf := s.NewTruthStamper(conds[:half])
			stamps, halfStamps := map[int]TruthStamp{}, map[int]TruthStamp{}
			answers := map[int][]Truth{}
			for round := range 6 {
				if round > 0 {
					addRandomEdges(g, part, r, 4)
				}
				if err := s.Solve(context.Background()); err != nil {
					t.Fatal(err)
				}
				for _, l := range p.Locs {
					st := s.At(l)
					got := make([]Truth, len(conds))
					for i, c := range conds {
						got[i] = st.Truth(c)
					}
					stamp := ts.Stamp(l)
					if old, ok := stamps[l.ID]; ok {
						if old == stamp {
							same++
							for i, c := range conds {
								if got[i] != answers[l.ID][i] {
									t.Fatalf("seed %d %s round %d: location %d, condition %v: %v under the stamp that answered %v", seed, dom.Name(), round, l.ID, c, got[i], answers[l.ID][i])
								}
							}
						} else {
							for i := range conds {
								if got[i] != answers[l.ID][i] {
									changed++
									break
								}
							}
						}
					}
					halfStamp := tsHalf.Stamp(l)
					if old, ok := halfStamps[l.ID]; ok && old == halfStamp {
						sameHalf++
						for i, c := range conds[:half] {
							if got[i] != answers[l.ID][i] {
								t.Fatalf("seed %d %s round %d: location %d, condition %v: %v under the stamp (of the first %d conditions) that answered %v", seed, dom.Name(), round, l.ID, c, got[i], half, answers[l.ID][i])
							}
						}
					}
					stamps[l.ID], halfStamps[l.ID], answers[l.ID] = stamp, halfStamp, got
				}
			}
		}
	}
	t.Logf("%d locations kept their stamp (%d of the first half of the conditions), %d changed answers under a new one", same, sameHalf, changed)
	if same < 1000 || sameHalf <= same || changed == 0 {
		t.Fatalf("the rounds do not exercise the stamps (%d kept, %d changed)", same, changed)
	}
}

// The case the random rounds rarely reach: a source's post changes while
// the location's own state does not. d comes to check(d != 2) from d := x
// (x = 1) and from d := 3: the join [1, 3] does not prove it, the guard
// (each source's value excludes 2) does. An edge bringing x = 2 into
// d := x makes that source [1, 2]: the join at the check is [1, 3] still,
// the guard fails. The check's stamp must change with its source's post.
func TestTruthStampSeesSourcePosts(t *testing.T) {
	for _, dom := range bothDomains {
		b := newIRB()
		x := b.global("x", cfg.Int32, k32(1))
		d := b.local("d", cfg.Int32)
		chk := b.check(cfg.AssertCheck, bin(cfg.Ne, ref(d), k32(2)))
		_, l := b.seq(b.cur.Entry, havoc(ref(d)))
		a, _ := b.seq(l, asg(ref(d), ref(x)))
		_, c := b.seq(l, asg(ref(d), k32(3)))
		j, _ := b.seq(nil, chk)
		link(a, j)
		link(c, j)
		w, _ := b.seq(j, asg(ref(x), k32(2)))
		b.exit(w)
		p := b.fix()
		part := NewPartition(p, false)
		g := New(p, part)
		s := NewSolver(g, dom)
		ts := s.NewTruthStamper([]cfg.Expr{chk.Cond})
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		before, beforeState := ts.Stamp(j), s.At(j)
		if got := s.At(j).Truth(chk.Cond); got != True {
			t.Fatalf("%s: d != 2 before the edge: %v, want true (the guard)", dom.Name(), got)
		}
		g.AddEdge(w, part.CellOf(x), a)
		if err := s.Solve(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := s.At(j).Truth(chk.Cond); got != Unknown {
			t.Fatalf("%s: d != 2 after the edge: %v, want unknown", dom.Name(), got)
		}
		if s.At(j) != beforeState {
			t.Logf("%s: the check's state was replaced (the case is not the one intended)", dom.Name())
		}
		if ts.Stamp(j) == before {
			t.Errorf("%s: the check's stamp stayed while its source's post changed", dom.Name())
		}
	}
}
