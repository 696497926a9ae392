package datalog_test

import (
	"context"
	"fmt"
	"sort"

	"chorus/datalog"
)

// Example_interference declares the rules of DESIGN.md §4 with the Go API
// and runs them on a tiny game: main (0 → 1 → 2 → 3) spawns a thread with
// entry 10 at location 1; the thread runs 10 → 11 → 12. Cell 0 is written
// by the thread at 11 and by main at 2.
func Example_interference() {
	p := datalog.New(datalog.WithMaxTuples(1_000_000))
	decl := func(name string, arity int, kind datalog.Kind) *datalog.Relation {
		r, err := p.Declare(name, arity, kind)
		if err != nil {
			panic(err)
		}
		return r
	}
	cf := decl("cf", 2, datalog.EDB)
	mod := decl("mod", 2, datalog.EDB)
	compat := decl("compat", 2, datalog.EDB)
	spawn := decl("spawn", 2, datalog.EDB)
	atomic := decl("atomic", 1, datalog.EDB)
	holds := decl("holds", 2, datalog.EDB)
	acq := decl("acq", 2, datalog.EDB)
	exec := decl("exec", 2, datalog.IDB)
	acqHeld := decl("acqHeld", 2, datalog.IDB)
	pair := decl("pair", 2, datalog.IDB)
	flow := decl("flow", 4, datalog.IDB)
	edge := decl("edge", 3, datalog.IDB)

	V := datalog.Var
	A, A2, B, B2, C, E := V("A"), V("A2"), V("B"), V("B2"), V("C"), V("E")
	L, S, U, W, X := V("L"), V("S"), V("U"), V("W"), V("X")
	not := datalog.Not
	type L_ = datalog.Literal
	rules := []struct {
		head datalog.Atom
		body []datalog.Literal
	}{
		{exec.Atom(A, B), []L_{compat.Atom(A, A), compat.Atom(B, A), not(atomic.Atom(B)), not(acqHeld.Atom(A, B))}},
		{acqHeld.Atom(A, B), []L_{acq.Atom(A, L), holds.Atom(B, L)}},
		{pair.Atom(E, C), []L_{spawn.Atom(S, E), cf.Atom(S, C)}},
		{pair.Atom(A, E), []L_{pair.Atom(A, S), spawn.Atom(S, E), exec.Atom(S, A)}},
		{pair.Atom(A2, B), []L_{pair.Atom(A, B), cf.Atom(A, A2), exec.Atom(A, B)}},
		{pair.Atom(B, A), []L_{pair.Atom(A, B)}},
		{flow.Atom(U, X, A2, B), []L_{pair.Atom(U, B), mod.Atom(U, X), cf.Atom(U, A2), exec.Atom(U, B)}},
		{flow.Atom(W, X, A2, B), []L_{flow.Atom(W, X, A, B), cf.Atom(A, A2), not(mod.Atom(A, X)), exec.Atom(A, B)}},
		{flow.Atom(W, X, A, B2), []L_{flow.Atom(W, X, A, B), cf.Atom(B, B2), not(mod.Atom(B, X)), exec.Atom(B, A)}},
		{edge.Atom(W, X, B), []L_{flow.Atom(W, X, datalog.Any, B)}},
	}
	for _, r := range rules {
		if err := p.AddRule(r.head, r.body...); err != nil {
			panic(err)
		}
	}

	for _, e := range [][2]uint32{{0, 1}, {1, 2}, {2, 3}, {10, 11}, {11, 12}} {
		cf.AddFact(e[0], e[1])
	}
	spawn.AddFact(1, 10)
	mod.AddFact(11, 0)
	mod.AddFact(2, 0)
	locs := []uint32{0, 1, 2, 3, 10, 11, 12}
	for _, a := range locs {
		for _, b := range locs {
			compat.AddFact(a, b)
		}
	}

	res, err := p.Evaluate(context.Background())
	if err != nil {
		panic(err)
	}
	edges := res.Added(edge).Slice()
	sort.Slice(edges, func(i, j int) bool {
		return fmt.Sprint(edges[i]) < fmt.Sprint(edges[j])
	})
	for _, e := range edges {
		fmt.Printf("write at %d of cell %d reaches a thread at %d\n", e[0], e[1], e[2])
	}
	// Output:
	// write at 11 of cell 0 reaches a thread at 2
	// write at 11 of cell 0 reaches a thread at 3
	// write at 2 of cell 0 reaches a thread at 10
	// write at 2 of cell 0 reaches a thread at 11
	// write at 2 of cell 0 reaches a thread at 12
}

// ExampleProgram_Parse shows the text syntax and incremental evaluation.
func ExampleProgram_Parse() {
	p := datalog.New()
	err := p.Parse("tc.dl", `
		% transitive closure
		path(X, Y) :- edge(X, Y).
		path(X, Z) :- path(X, Y), edge(Y, Z), X != Z.
		edge(1, 2). edge(2, 3).
	`)
	if err != nil {
		panic(err)
	}
	path := p.Relation("path")
	res, _ := p.Evaluate(context.Background())
	fmt.Println("first:", res.Added(path).Slice())
	p.Relation("edge").AddFact(3, 4)
	res, _ = p.Evaluate(context.Background())
	fmt.Println("new:", res.Added(path).Slice(), "recomputed:", res.Stats[0].Recomputed)
	fmt.Println(path.Contains(1, 4), path.Len())
	// Output:
	// first: [[1 2] [2 3] [1 3]]
	// new: [[3 4] [1 4] [2 4]] recomputed: false
	// true 6
}
