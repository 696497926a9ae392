package datalog

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string, opts ...Option) *Program {
	t.Helper()
	p := New(opts...)
	if err := p.Parse("test.dl", src); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustEval(t *testing.T, p *Program) *Result {
	t.Helper()
	res, err := p.Evaluate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// bfsClosure is the reference transitive closure: BFS from every node.
func bfsClosure(n int, edges [][2]uint32) map[[2]uint32]bool {
	adj := make([][]uint32, n)
	for _, e := range edges {
		adj[e[0]] = append(adj[e[0]], e[1])
	}
	out := map[[2]uint32]bool{}
	for s := 0; s < n; s++ {
		seen := make([]bool, n)
		queue := append([]uint32(nil), adj[s]...)
		for _, v := range adj[s] {
			seen[v] = true
		}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			out[[2]uint32{uint32(s), v}] = true
			for _, w := range adj[v] {
				if !seen[w] {
					seen[w] = true
					queue = append(queue, w)
				}
			}
		}
	}
	return out
}

func TestTransitiveClosure(t *testing.T) {
	for _, kind := range []IndexKind{HashIndexes, BTreeIndexes} {
		p := mustParse(t, `
			path(X, Y) :- edge(X, Y).
			path(X, Z) :- path(X, Y), edge(Y, Z).
		`, WithIndexes(kind))
		edge, path := p.Relation("edge"), p.Relation("path")
		rng := rand.New(rand.NewSource(1))
		const n = 300
		var edges [][2]uint32
		addEdges := func(k int) {
			for ; k > 0; k-- {
				e := [2]uint32{uint32(rng.Intn(n)), uint32(rng.Intn(n))}
				edges = append(edges, e)
				if _, err := edge.AddFact(e[0], e[1]); err != nil {
					t.Fatal(err)
				}
			}
		}
		addEdges(250)
		prevLen := 0
		for round := 0; round < 4; round++ {
			res := mustEval(t, p)
			want := bfsClosure(n, edges)
			if path.Len() != len(want) {
				t.Fatalf("round %d: |path| = %d, want %d", round, path.Len(), len(want))
			}
			for e := range want {
				if !path.Contains(e[0], e[1]) {
					t.Fatalf("round %d: missing path %v", round, e)
				}
			}
			if got := res.Added(path).Len(); got != len(want)-prevLen {
				t.Fatalf("round %d: Added(path) has %d tuples, want %d", round, got, len(want)-prevLen)
			}
			if round > 0 && res.Stats[0].Recomputed {
				t.Fatalf("round %d: positive program recomputed from scratch", round)
			}
			prevLen = len(want)
			addEdges(30)
		}
	}
}

func TestSameGeneration(t *testing.T) {
	// A complete binary tree of depth 4: node i has children 2i+1, 2i+2.
	p := mustParse(t, `
		sg(X, X) :- node(X).
		sg(X, Y) :- parent(X, XP), sg(XP, YP), parent(Y, YP).
	`)
	node, parent, sg := p.Relation("node"), p.Relation("parent"), p.Relation("sg")
	depth := func(i int) int {
		d := 0
		for i > 0 {
			i = (i - 1) / 2
			d++
		}
		return d
	}
	const n = 31
	for i := 0; i < n; i++ {
		node.AddFact(uint32(i))
		if i > 0 {
			parent.AddFact(uint32(i), uint32((i-1)/2))
		}
	}
	mustEval(t, p)
	count := 0
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			want := depth(i) == depth(j)
			if sg.Contains(uint32(i), uint32(j)) != want {
				t.Fatalf("sg(%d,%d) = %v, want %v", i, j, !want, want)
			}
			if want {
				count++
			}
		}
	}
	if sg.Len() != count {
		t.Fatalf("|sg| = %d, want %d", sg.Len(), count)
	}
}

func TestReachabilityWithNegation(t *testing.T) {
	p := mustParse(t, `
		reach(X) :- start(X).
		reach(Y) :- reach(X), edge(X, Y).
		unreachable(X) :- node(X), !reach(X).
		% nodes reachable but without outgoing edges
		sink(X) :- reach(X), !edge(X, _).
	`)
	for i := uint32(0); i < 6; i++ {
		p.Relation("node").AddFact(i)
	}
	p.Relation("start").AddFact(0)
	for _, e := range [][2]uint32{{0, 1}, {1, 2}, {3, 4}} {
		p.Relation("edge").AddFact(e[0], e[1])
	}
	mustEval(t, p)
	un, sink := p.Relation("unreachable"), p.Relation("sink")
	got := engineContents(un)
	if strings.Join(got, " ") != "[3] [4] [5]" {
		t.Fatalf("unreachable = %v", got)
	}
	if got := engineContents(sink); strings.Join(got, " ") != "[2]" {
		t.Fatalf("sink = %v", got)
	}
	// Growing the negated relation's input retracts tuples: reported,
	// flagged, and the result is exact.
	p.Relation("edge").AddFact(2, 3)
	res, err := p.Evaluate(context.Background())
	if !errors.Is(err, ErrRetracted) {
		t.Fatalf("want ErrRetracted, got %v", err)
	}
	if got := tuplesKeys(res.Removed(un)); strings.Join(got, " ") != "[3] [4]" {
		t.Fatalf("Removed(unreachable) = %v", got)
	}
	if got := tuplesKeys(res.Removed(sink)); strings.Join(got, " ") != "[2]" {
		t.Fatalf("Removed(sink) = %v", got)
	}
	if got := tuplesKeys(res.Added(sink)); strings.Join(got, " ") != "[4]" {
		t.Fatalf("Added(sink) = %v", got)
	}
	if got := engineContents(un); strings.Join(got, " ") != "[5]" {
		t.Fatalf("unreachable = %v", got)
	}
	// Adding to a relation only read positively stays incremental and monotone.
	p.Relation("start").AddFact(5)
	res, err = p.Evaluate(context.Background())
	if !errors.Is(err, ErrRetracted) { // unreachable(5) disappears
		t.Fatalf("want ErrRetracted, got %v", err)
	}
	for _, st := range res.Stats {
		if st.Relations[0] == "reach" && st.Recomputed {
			t.Fatalf("reach recomputed although only its positive input grew")
		}
		if st.Relations[0] == "unreachable" && !st.Recomputed {
			t.Fatalf("unreachable not recomputed although the negated reach grew")
		}
	}
}

func TestIncrementalStaysIncremental(t *testing.T) {
	p := mustParse(t, `
		r(X, Y) :- e(X, Y).
		r(X, Z) :- r(X, Y), e(Y, Z).
		big(X) :- r(X, _), !small(X).
	`)
	e, small, r, big := p.Relation("e"), p.Relation("small"), p.Relation("r"), p.Relation("big")
	e.AddFact(1, 2)
	small.AddFact(9)
	mustEval(t, p)
	e.AddFact(2, 3)
	res := mustEval(t, p)
	for _, st := range res.Stats {
		if st.Recomputed {
			t.Fatalf("stratum %v recomputed although no negated relation grew", st.Relations)
		}
	}
	if got := tuplesKeys(res.Added(r)); strings.Join(got, " ") != "[1 3] [2 3]" {
		t.Fatalf("Added(r) = %v", got)
	}
	if got := tuplesKeys(res.Added(big)); strings.Join(got, " ") != "[2]" {
		t.Fatalf("Added(big) = %v", got)
	}
	small.AddFact(7) // negated relation grows but retracts nothing
	res = mustEval(t, p)
	var recomputed []string
	for _, st := range res.Stats {
		if st.Recomputed {
			recomputed = append(recomputed, st.Relations...)
		}
	}
	if strings.Join(recomputed, ",") != "big" {
		t.Fatalf("recomputed %v, want only big", recomputed)
	}
	if res.NumAdded() != 0 || !res.Monotone() {
		t.Fatalf("spurious changes: added %d monotone %v", res.NumAdded(), res.Monotone())
	}
}

func TestStratificationError(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`p(X) :- q(X), !p(X).`, "p -> !p"},
		{`
			win(X) :- move(X, Y), !lose(Y).
			lose(X) :- move(X, Y), !win2(Y).
			win2(X) :- win(X).`, "lose -> !win2 -> win -> lose"},
	} {
		p := mustParse(t, tc.src)
		_, err := p.Evaluate(context.Background())
		if err == nil || !strings.Contains(err.Error(), "not stratifiable") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want cycle %q", err, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"p(X) :- q(X)", "f.dl:1:13: expected ',' or '.', found end of input"},
		{"p(X) :- q(X)\n  , r(X", "f.dl:2:8: expected ',' or ')'"},
		{"p(X) :- q(X), X < 3.", "f.dl:1:17: expected '=' or '!='"},
		{"P(X) :- q(X).", "f.dl:1:1: expected relation name, found variable"},
		{"p(x).", "f.dl:1:3: expected variable, _ or integer"},
		{"p(99999999999).", "f.dl:1:3: invalid constant"},
		{"p(X) :- q(X, Y), q(Y).", "f.dl:1:18: q used with 1 arguments, but it has arity 2"},
		{"p(X) :- q(Y).", "f.dl:1:1: datalog: rule p(X) :- q(Y).: variable X must occur in a positive body atom"},
		{"p(X) :- q(X), !r(Y).", "variable Y must occur in a positive body atom"},
		{"p(_) :- q(_).", "wildcard _ in the head"},
		{"e(X).", "f.dl:1:3: fact e must be ground"},
		{"p(X) :- q(X) & r(X).", "f.dl:1:14: expected ',' or '.', found invalid character \"&\""},
		{"p(X) :- q(X).\nq(X) :- p(X).\np(1, 2).", "f.dl:3:1: p used with 2 arguments"},
		{"% only a comment\n\n  :- q(X).", "f.dl:3:3: expected relation name"},
	} {
		p := New()
		err := p.Parse("f.dl", tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%q) = %v, want %q", tc.src, err, tc.want)
		}
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("Parse(%q): error %T is not a *ParseError", tc.src, err)
		}
	}
}

func TestParseAndString(t *testing.T) {
	src := `% comment
head(X, Y) :- a(X, Z), !b(Z), c(Z, Y), X != Y.
k(X) :- a(X, _), X = 3.
k(7).
a(1, 2). a(3, 4).
b(9).
c(2, 5). c(4, 3).
`
	p := mustParse(t, src)
	want := "% edb a/2\n% edb b/1\n% edb c/2\n% idb head/2\n% idb k/1\n" +
		"head(X, Y) :- a(X, Z), !b(Z), c(Z, Y), X != Y.\nk(X) :- a(X, _), X = 3.\nk(7).\n"
	// Declaration order follows first use in the text: head first.
	if !strings.Contains(p.String(), "head(X, Y) :- a(X, Z), !b(Z), c(Z, Y), X != Y.\nk(X) :- a(X, _), X = 3.\nk(7).\n") {
		t.Fatalf("String():\n%s\nwant rules as in\n%s", p, want)
	}
	mustEval(t, p)
	if got := engineContents(p.Relation("head")); strings.Join(got, " ") != "[1 5]" {
		t.Fatalf("head = %v", got) // a(3,4),c(4,3) gives X == Y == 3: excluded
	}
	if got := engineContents(p.Relation("k")); strings.Join(got, " ") != "[3] [7]" {
		t.Fatalf("k = %v", got)
	}
	if !strings.Contains(p.Dump(), "head(1, 5).") {
		t.Fatalf("Dump lacks head(1, 5):\n%s", p.Dump())
	}
}

func TestLimitsAndCancellation(t *testing.T) {
	src := "path(X, Y) :- edge(X, Y).\npath(X, Z) :- path(X, Y), edge(Y, Z).\n"
	build := func(opts ...Option) *Program {
		p := mustParse(t, src, opts...)
		for i := uint32(0); i < 200; i++ {
			p.Relation("edge").AddFact(i, (i+1)%200)
		}
		return p
	}
	p := build(WithMaxTuples(1000))
	_, err := p.Evaluate(context.Background())
	if !errors.Is(err, ErrTupleLimit) {
		t.Fatalf("want ErrTupleLimit, got %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p = build()
	if _, err := p.Evaluate(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("want context.Canceled, got %v", err)
	}
	// The interrupted program recovers.
	res := mustEval(t, p)
	if got := p.Relation("path").Len(); got != 200*200 || res.Added(p.Relation("path")).Len() != 200*200 {
		t.Fatalf("|path| = %d after recovery", got)
	}
}

func TestAPIErrors(t *testing.T) {
	p := New()
	e, _ := p.Declare("e", 2, EDB)
	q, _ := p.Declare("q", 1, IDB)
	if _, err := p.Declare("e", 3, EDB); err == nil {
		t.Error("redeclaration with another arity accepted")
	}
	if _, err := p.Declare("Bad", 1, EDB); err == nil {
		t.Error("upper-case relation name accepted")
	}
	if _, err := e.AddFact(1); err == nil {
		t.Error("fact of wrong arity accepted")
	}
	if _, err := q.AddFact(1); err == nil {
		t.Error("fact of IDB relation accepted")
	}
	X := Var("X")
	for _, tc := range []struct {
		head Atom
		body []Literal
	}{
		{e.Atom(X, X), []Literal{q.Atom(X)}},               // EDB head
		{q.Atom(X, X), []Literal{e.Atom(X, X)}},            // arity
		{q.Atom(X), []Literal{e.Atom(X, Any), Eq(X, Any)}}, // wildcard in constraint
		{q.Atom(Var("Y")), []Literal{e.Atom(X, Any)}},      // unsafe head
		{q.Atom(X), []Literal{e.Atom(X, Any), Neq(X, Var("Z"))}},
	} {
		if err := p.AddRule(tc.head, tc.body...); err == nil {
			t.Errorf("rule %v :- %v accepted", tc.head, tc.body)
		}
	}
	// Unsatisfiable constraints are accepted and derive nothing.
	if err := p.AddRule(q.Atom(X), e.Atom(X, Any), Eq(X, Const(1)), Eq(X, Const(2))); err != nil {
		t.Fatal(err)
	}
	if err := p.AddRule(q.Atom(X), e.Atom(X, Var("Y")), Eq(X, Var("Y")), Neq(Var("Y"), X)); err != nil {
		t.Fatal(err)
	}
	e.AddFact(1, 1)
	e.AddFact(2, 2)
	mustEval(t, p)
	if q.Len() != 0 {
		t.Fatalf("unsatisfiable rules derived %v", engineContents(q))
	}
}

// TestRulesAddedLater adds a rule between evaluations.
func TestRulesAddedLater(t *testing.T) {
	p := mustParse(t, "r(X, Y) :- e(X, Y).\ne(1, 2). e(2, 3).")
	mustEval(t, p)
	if err := p.Parse("more.dl", "r(X, Z) :- r(X, Y), e(Y, Z)."); err != nil {
		t.Fatal(err)
	}
	res := mustEval(t, p)
	if got := tuplesKeys(res.Added(p.Relation("r"))); fmt.Sprint(got) != "[[1 3]]" {
		t.Fatalf("Added(r) = %v", got)
	}
}

func TestExplain(t *testing.T) {
	p := newInterferenceProgram(t)
	s, err := p.Explain()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"stratum 1: exec",
		// the delta first, negation as soon as bound, fully bound atoms probed
		"scan Δflow(W, X, A, B) → !mod(A, X) → probe exec(A, B) → index[0] cf(A, A2)",
		"scan Δpair(A, B) → probe exec(A, B) → index[0] cf(A, A2)",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("Explain lacks %q:\n%s", want, s)
		}
	}
	// Strata come in dependency order.
	if strings.Index(s, "stratum") > strings.Index(s, ": exec") || strings.Index(s, ": pair") > strings.Index(s, ": flow") {
		t.Errorf("strata out of order:\n%s", s)
	}
	q := mustParse(t, "p(X) :- q(X), !p(X).")
	if _, err := q.Explain(); err == nil {
		t.Error("Explain accepted an unstratifiable program")
	}
}

// FuzzParse checks that no input makes Parse panic, that errors carry a
// position, and that accepted programs print and evaluate.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"p(X) :- q(X).", "p(X, Y) :- q(X, Z), !r(Z), s(Z, Y), X != Y.", "e(1, 2). p(X) :- e(X, _), X = 1.",
		"p(X) :- q(X), !p(X).", "p :- q.", "% c\n", "p(4294967296).", "p(X) :- q(X) & r.", "p(X) :- X = Y, q(Y).",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		p := New(WithMaxTuples(10000))
		err := p.Parse("fuzz.dl", src)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("error without position: %v", err)
			}
			return
		}
		_ = p.String()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if _, err := p.Evaluate(ctx); err != nil && !strings.Contains(err.Error(), "not stratifiable") &&
			!errors.Is(err, ErrTupleLimit) {
			t.Fatalf("Evaluate: %v", err)
		}
	})
}
