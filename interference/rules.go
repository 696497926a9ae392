package interference

import (
	"context"
	"fmt"

	"chorus/datalog"
)

// Rules is the two-thread game of DESIGN.md §4 in the text syntax of
// package datalog, over game positions. exec(A, B) is inlined where it is
// used (materializing it would cost a tuple per pair of positions):
//
//	exec(A, B) :- canrun(A), enof(A, E), compat(B, E), !atomic(B), !acqheld(A, B).
//
// compat(B, E): Φ̂(B) ∧ the enabled-literal class E is satisfiable;
// enof(A, E): enabled(A) is class E; canrun(A): compat(A, A).
// useful(B, X): a reader standing at B may still need X (see
// game.readerUseful); flows whose reader cannot use X are dropped, which
// changes no edge. The rule for spawn is ours (see game).
// Negated relations (mod, atomic, acqheld) never change after the first
// round, so every later Evaluate is incremental: only compat grows.
const Rules = pairRules + `
flow(U, X, A2, B) :- pair(U, B), mod(U, X), cf(U, A2), useful(B, X),
               canrun(U), enof(U, E), compat(B, E), !atomic(B), !acqheld(U, B).
flow(W, X, A2, B) :- flow(W, X, A, B), cf(A, A2), !mod(A, X),
               canrun(A), enof(A, E), compat(B, E), !atomic(B), !acqheld(A, B).
flow(W, X, A, B2) :- flow(W, X, A, B), cf(B, B2), !mod(B, X), !rkill(B, X), useful(B2, X),
               canrun(B), enof(B, E), compat(A, E), !atomic(A), !acqheld(B, A).
flow(W, X, A, E2) :- flow(W, X, A, S), spawn(S, E2), !mod(S, X), useful(E2, X),
               canrun(S), enof(S, E), compat(A, E), !atomic(A), !acqheld(S, A).

edge(W, X, B) :- flow(W, X, _, B).
`

// pairRules are the rules for canrun, acqheld and pair, shared by the
// exact game (Rules) and the coarse one (coarse.go).
const pairRules = `
canrun(A)   :- enof(A, E), compat(A, E).
acqheld(A, B) :- acq(A, L), holds(B, L).

pair(E, C)  :- spawn(S, E), cf(S, C).
pair(A, E2) :- pair(A, S), spawn(S, E2),
               canrun(S), enof(S, E), compat(A, E), !atomic(A), !acqheld(S, A).
pair(A2, B) :- pair(A, B), cf(A, A2),
               canrun(A), enof(A, E), compat(B, E), !atomic(B), !acqheld(A, B).
pair(B, A)  :- pair(A, B).
`

// datalogGame runs Rules on the datalog engine.
type datalogGame struct {
	e      *Engine
	prog   *datalog.Program
	compat *datalog.Relation
	edge   *datalog.Relation
	loaded bool
}

func newDatalogGame(e *Engine, maxTuples int) (*datalogGame, error) {
	return newDatalogGameWith(e, Rules, maxTuples)
}

// newDatalogGameWith runs other rules over the same relations (tests use
// it to check coarseGame against the coarse rules written in datalog).
// They must define compat and edge(W, X, B).
func newDatalogGameWith(e *Engine, rules string, maxTuples int) (*datalogGame, error) {
	p := datalog.New(datalog.WithMaxTuples(maxTuples))
	if err := p.Parse("interference.dl", rules); err != nil {
		return nil, err
	}
	return &datalogGame{e: e, prog: p, compat: p.Relation("compat"), edge: p.Relation("edge")}, nil
}

func (d *datalogGame) add(rel string, t ...uint32) error {
	r := d.prog.Relation(rel)
	if r == nil {
		return fmt.Errorf("interference: no relation %s in the rules", rel)
	}
	_, err := r.AddFact(t...)
	return err
}

// load adds the static facts once.
func (d *datalogGame) load() error {
	e := d.e
	cells := map[int]bool{}
	for a := range e.pos.locs {
		ua := uint32(a)
		for _, a2 := range e.pos.cf[a] {
			if err := d.add("cf", ua, uint32(a2)); err != nil {
				return err
			}
		}
		for _, x := range e.mod[a] {
			cells[x] = true
			if err := d.add("mod", ua, uint32(x)); err != nil {
				return err
			}
		}
		for _, en := range e.spawn[a] {
			if err := d.add("spawn", ua, uint32(en)); err != nil {
				return err
			}
		}
		if e.atomic[a] {
			if err := d.add("atomic", ua); err != nil {
				return err
			}
		}
		for l := range e.locks.vars {
			if e.holds[a].has(l) {
				if err := d.add("holds", ua, uint32(l)); err != nil {
					return err
				}
			}
		}
		if e.acq[a] >= 0 {
			if err := d.add("acq", ua, uint32(e.acq[a])); err != nil {
				return err
			}
		}
		if err := d.add("enof", ua, uint32(e.enClass[a])); err != nil {
			return err
		}
		if rk := e.readerKills(); rk != nil { // readerkill.go
			for _, x := range rk[a] {
				if err := d.add("rkill", ua, uint32(x)); err != nil {
					return err
				}
			}
		}
	}
	// useful(B, X) for the cells some position writes.
	for x := range cells {
		live := e.liveness(x)
		for b := range e.pos.locs {
			if live.has(b) {
				if err := d.add("useful", uint32(b), uint32(x)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// run adds the compat facts of this round and evaluates incrementally.
func (d *datalogGame) run(ctx context.Context) ([]fact3, error) {
	e := d.e
	if !d.loaded {
		d.loaded = true
		if err := d.load(); err != nil {
			return nil, err
		}
	}
	k := len(e.classes)
	for b := range e.pos.locs {
		for c := 0; c < k; c++ {
			if e.compat[b*k+c] {
				if _, err := d.compat.AddFact(uint32(b), uint32(c)); err != nil {
					return nil, err
				}
			}
		}
	}
	res, err := d.prog.Evaluate(ctx)
	if err != nil {
		return nil, err
	}
	added := res.Added(d.edge)
	out := make([]fact3, 0, added.Len())
	for i := 0; i < added.Len(); i++ {
		t := added.At(i)
		out = append(out, fact3{w: int32(t[0]), x: int32(t[1]), b: int32(t[2])})
	}
	return out, nil
}

func (d *datalogGame) sizes() (pairs, flows int) {
	return d.prog.Relation("pair").Len(), d.prog.Relation("flow").Len()
}
