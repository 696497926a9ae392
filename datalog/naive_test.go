package datalog

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand"
	"sort"
	"strings"
	"testing"
)

// naive is an obviously-correct reference evaluator: it reads only the
// public rule AST (Head, Body), stratifies by iterating "level(head) ≥
// level(body), > for negated bodies" to a fixpoint, and within a level
// re-applies every rule to all tuples by brute-force nested loops until
// nothing changes. No indexes, no deltas, no equality substitution.
type naive struct {
	facts map[string]map[string][]uint32 // relation -> key -> tuple
}

func tupleKey(t []uint32) string { return fmt.Sprint(t) }

func naiveEval(p *Program) (*naive, error) {
	n := &naive{facts: map[string]map[string][]uint32{}}
	for _, r := range p.Relations() {
		n.facts[r.Name()] = map[string][]uint32{}
		if r.Kind() == EDB {
			r.ForEach(func(t []uint32) bool {
				n.facts[r.Name()][tupleKey(t)] = append([]uint32(nil), t...)
				return true
			})
		}
	}
	rules := p.Rules()
	level := map[string]int{}
	for changed, rounds := true, 0; changed; rounds++ {
		if rounds > len(p.Relations())+1 {
			return nil, errors.New("naive: not stratifiable")
		}
		changed = false
		for _, ru := range rules {
			h := ru.Head.Rel.Name()
			for _, l := range ru.Body {
				need := 0
				switch l := l.(type) {
				case Atom:
					need = level[l.Rel.Name()]
				case Negation:
					need = level[l.Atom.Rel.Name()] + 1
				}
				if need > level[h] {
					level[h] = need
					changed = true
				}
			}
		}
	}
	maxLevel := 0
	for _, l := range level {
		maxLevel = max(maxLevel, l)
	}
	for lv := 0; lv <= maxLevel; lv++ {
		for changed := true; changed; {
			changed = false
			for _, ru := range rules {
				if level[ru.Head.Rel.Name()] != lv {
					continue
				}
				for _, t := range n.fire(ru) {
					m := n.facts[ru.Head.Rel.Name()]
					if _, ok := m[tupleKey(t)]; !ok {
						m[tupleKey(t)] = t
						changed = true
					}
				}
			}
		}
	}
	return n, nil
}

// fire returns every head tuple the rule derives from the current facts.
func (n *naive) fire(ru *Rule) [][]uint32 {
	var atoms []Atom
	for _, l := range ru.Body {
		if a, ok := l.(Atom); ok {
			atoms = append(atoms, a)
		}
	}
	var out [][]uint32
	var rec func(i int, env map[string]uint32)
	rec = func(i int, env map[string]uint32) {
		if i < len(atoms) {
			for _, t := range n.facts[atoms[i].Rel.Name()] {
				if !matches(atoms[i].Args, t, env) {
					continue
				}
				e2 := maps.Clone(env)
				unify(atoms[i].Args, t, e2)
				rec(i+1, e2)
			}
			return
		}

		// Equalities may bind variables not bound by atoms.
		for progress := true; progress; {
			progress = false
			for _, l := range ru.Body {
				c, ok := l.(Constraint)
				if !ok || c.Negated {
					continue
				}
				lv, lok := termValue(c.Left, env)
				rv, rok := termValue(c.Right, env)
				switch {
				case lok && rok:
					if lv != rv {
						return
					}
				case lok:
					env[c.Right.Name()] = lv
					progress = true
				case rok:
					env[c.Left.Name()] = rv
					progress = true
				}
			}
		}
		for _, l := range ru.Body {
			switch l := l.(type) {
			case Constraint:
				lv, lok := termValue(l.Left, env)
				rv, rok := termValue(l.Right, env)
				if !lok || !rok {
					panic("naive: unbound constraint variable")
				}
				if (lv == rv) == l.Negated {
					return
				}
			case Negation:
				for _, t := range n.facts[l.Atom.Rel.Name()] {
					e2 := map[string]uint32{}
					for k, v := range env {
						e2[k] = v
					}
					if unify(l.Atom.Args, t, e2) {
						return
					}
				}
			}
		}
		h := make([]uint32, len(ru.Head.Args))
		for i, a := range ru.Head.Args {
			v, ok := termValue(a, env)
			if !ok {
				panic("naive: unbound head variable")
			}
			h[i] = v
		}
		out = append(out, h)
	}
	rec(0, map[string]uint32{})
	return out
}

func termValue(t Term, env map[string]uint32) (uint32, bool) {
	if t.IsConst() {
		return t.Value(), true
	}
	v, ok := env[t.Name()]
	return v, ok
}

// matches reports whether unify would succeed, without binding anything.
func matches(args []Term, t []uint32, env map[string]uint32) bool {
	local := map[string]uint32{}
	for i, a := range args {
		switch {
		case a.IsAny():
		case a.IsConst():
			if a.Value() != t[i] {
				return false
			}
		default:
			v, ok := env[a.Name()]
			if !ok {
				v, ok = local[a.Name()]
			}
			if ok && v != t[i] {
				return false
			}
			local[a.Name()] = t[i]
		}
	}
	return true
}

func unify(args []Term, t []uint32, env map[string]uint32) bool {
	for i, a := range args {
		switch {
		case a.IsAny():
		case a.IsConst():
			if a.Value() != t[i] {
				return false
			}
		default:
			if v, ok := env[a.Name()]; ok {
				if v != t[i] {
					return false
				}
			} else {
				env[a.Name()] = t[i]
			}
		}
	}
	return true
}

// contents returns rel's tuples as sorted keys.
func (n *naive) contents(rel string) []string {
	var ks []string
	for k := range n.facts[rel] {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func engineContents(r *Relation) []string {
	var ks []string
	r.ForEach(func(t []uint32) bool { ks = append(ks, tupleKey(t)); return true })
	sort.Strings(ks)
	return ks
}

func tuplesKeys(t Tuples) []string {
	var ks []string
	for i := 0; i < t.Len(); i++ {
		ks = append(ks, tupleKey(t.At(i)))
	}
	sort.Strings(ks)
	return ks
}

func setMinus(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}

// randomProgram builds a stratifiable program: EDB e0..e2, IDB relations
// in levels of two (mutual recursion inside a level), positive atoms over
// any relation of the same or a lower level, negation only below.
// bigValues makes random programs and facts use large values (multiples of
// 1000003), so that relations leave the dense-bitmap domain.
var bigValues bool

func val(k int) uint32 {
	if bigValues {
		return uint32(k) * 1000003
	}
	return uint32(k)
}

func randomProgram(rng *rand.Rand, opts ...Option) (*Program, []*Relation, string) {
	p := New(opts...)
	var edb, idb []*Relation
	for i := 0; i < 3; i++ {
		r, _ := p.Declare(fmt.Sprintf("e%d", i), 1+rng.Intn(2), EDB)
		edb = append(edb, r)
	}
	const levels = 3
	for i := 0; i < 2*levels; i++ {
		r, _ := p.Declare(fmt.Sprintf("i%d", i), 1+rng.Intn(3), IDB)
		idb = append(idb, r)
	}
	varNames := []string{"A", "B", "C", "D"}
	randTerm := func(allowAny bool) Term {
		switch x := rng.Intn(10); {
		case x == 0:
			return Const(val(rng.Intn(4)))
		case x == 1 && allowAny:
			return Any
		default:
			return Var(varNames[rng.Intn(len(varNames))])
		}
	}
	nrules := 0
	for lv := 0; lv < levels; lv++ {
		posRels := append([]*Relation(nil), edb...)
		posRels = append(posRels, idb[:2*lv+2]...)
		negRels := append([]*Relation(nil), edb...)
		negRels = append(negRels, idb[:2*lv]...)
		for _, h := range idb[2*lv : 2*lv+2] {
			for k := 1 + rng.Intn(3); k > 0; k-- {
				var body []Literal
				bound := map[string]bool{}
				var boundList []string
				for a := 1 + rng.Intn(3); a > 0; a-- {
					r := posRels[rng.Intn(len(posRels))]
					args := make([]Term, r.Arity())
					for i := range args {
						args[i] = randTerm(true)
						if args[i].IsVar() && !bound[args[i].Name()] {
							bound[args[i].Name()] = true
							boundList = append(boundList, args[i].Name())
						}
					}
					body = append(body, r.Atom(args...))
				}
				pick := func() Term {
					if len(boundList) == 0 || rng.Intn(8) == 0 {
						return Const(val(rng.Intn(4)))
					}
					return Var(boundList[rng.Intn(len(boundList))])
				}
				if rng.Intn(2) == 0 {
					r := negRels[rng.Intn(len(negRels))]
					args := make([]Term, r.Arity())
					for i := range args {
						if rng.Intn(4) == 0 {
							args[i] = Any
						} else {
							args[i] = pick()
						}
					}
					body = append(body, Not(r.Atom(args...)))
				}
				headExtra := ""
				switch rng.Intn(5) {
				case 0:
					body = append(body, Neq(pick(), pick()))
				case 1:
					body = append(body, Eq(pick(), pick()))
				case 2:
					// A variable bound only by an equality.
					headExtra = "E"
					body = append(body, Eq(Var("E"), pick()))
				}
				args := make([]Term, h.Arity())
				for i := range args {
					if headExtra != "" && rng.Intn(2) == 0 {
						args[i] = Var(headExtra)
					} else {
						args[i] = pick()
					}
				}
				if err := p.AddRule(h.Atom(args...), body...); err != nil {
					panic(err)
				}
				nrules++
			}
		}
	}
	// Occasionally a bodiless rule (a fact of an IDB relation).
	if rng.Intn(3) == 0 {
		h := idb[rng.Intn(len(idb))]
		args := make([]Term, h.Arity())
		for i := range args {
			args[i] = Const(val(rng.Intn(4)))
		}
		if err := p.AddRule(h.Atom(args...)); err != nil {
			panic(err)
		}
	}
	return p, edb, p.String()
}

func addRandomFacts(rng *rand.Rand, edb []*Relation, n int, only *Relation) {
	for ; n > 0; n-- {
		r := edb[rng.Intn(len(edb))]
		if only != nil {
			r = only
		}
		t := make([]uint32, r.Arity())
		for i := range t {
			t[i] = val(rng.Intn(5))
		}
		if _, err := r.AddFact(t...); err != nil {
			panic(err)
		}
	}
}

// compareAll checks every IDB relation against the naive evaluator and
// the reported differences against the previous contents.
func compareAll(t *testing.T, p *Program, prev map[string][]string, res *Result, err error, label string) map[string][]string {
	t.Helper()
	n, nerr := naiveEval(p)
	if nerr != nil {
		t.Fatalf("%s: %v", label, nerr)
	}
	cur := map[string][]string{}
	anyRemoved := false
	for _, r := range p.Relations() {
		if r.Kind() != IDB {
			continue
		}
		got, want := engineContents(r), n.contents(r.Name())
		if strings.Join(got, ";") != strings.Join(want, ";") {
			t.Fatalf("%s: relation %s\n got  %v\n want %v\nprogram:\n%s", label, r.Name(), got, want, p.Dump())
		}
		cur[r.Name()] = got
		if res != nil {
			added, removed := setMinus(got, prev[r.Name()]), setMinus(prev[r.Name()], got)
			if a := tuplesKeys(res.Added(r)); strings.Join(a, ";") != strings.Join(added, ";") {
				t.Fatalf("%s: Added(%s) = %v, want %v", label, r.Name(), a, added)
			}
			if a := tuplesKeys(res.Removed(r)); strings.Join(a, ";") != strings.Join(removed, ";") {
				t.Fatalf("%s: Removed(%s) = %v, want %v", label, r.Name(), a, removed)
			}
			anyRemoved = anyRemoved || len(removed) > 0
		}
	}
	if res != nil && anyRemoved != errors.Is(err, ErrRetracted) {
		t.Fatalf("%s: removed=%v but err=%v", label, anyRemoved, err)
	}
	if res != nil && res.Monotone() == anyRemoved {
		t.Fatalf("%s: Monotone()=%v with removed=%v", label, res.Monotone(), anyRemoved)
	}
	return cur
}

func evalOK(t *testing.T, p *Program, ctx context.Context) (*Result, error) {
	t.Helper()
	res, err := p.Evaluate(ctx)
	if err != nil && !errors.Is(err, ErrRetracted) {
		t.Fatalf("Evaluate: %v\n%s", err, p)
	}
	return res, err
}

func TestDifferentialRandom(t *testing.T) {
	for seed := int64(0); seed < 400; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var opts []Option
		if seed%4 == 3 {
			opts = append(opts, WithIndexes(BTreeIndexes))
		}
		bigValues = seed%3 == 1
		p, edb, _ := randomProgram(rng, opts...)
		addRandomFacts(rng, edb, 5+rng.Intn(15), nil)
		label := fmt.Sprintf("seed %d", seed)
		res, err := evalOK(t, p, context.Background())
		prev := compareAll(t, p, map[string][]string{}, res, err, label+" round 0")
		// Incremental rounds: grow the EDB (sometimes only one relation, so
		// strata not reading it stay incremental) and continue.
		for round := 1; round <= 4; round++ {
			var only *Relation
			if rng.Intn(2) == 0 {
				only = edb[rng.Intn(len(edb))]
			}
			addRandomFacts(rng, edb, 1+rng.Intn(6), only)
			res, err = evalOK(t, p, context.Background())
			prev = compareAll(t, p, prev, res, err, fmt.Sprintf("%s round %d", label, round))
		}
		bigValues = false
		// A call without changes adds nothing.
		res, err = evalOK(t, p, context.Background())
		if err != nil || res.NumAdded() != 0 {
			t.Fatalf("%s: idle Evaluate added %d (err %v)", label, res.NumAdded(), err)
		}
	}
}

// TestDifferentialTextRoundTrip reparses String() output and checks the
// reparsed program computes the same relations.
func TestDifferentialTextRoundTrip(t *testing.T) {
	for seed := int64(1000); seed < 1100; seed++ {
		rng := rand.New(rand.NewSource(seed))
		p, edb, text := randomProgram(rng)
		addRandomFacts(rng, edb, 20, nil)
		var facts strings.Builder
		for _, r := range edb {
			r.ForEach(func(tu []uint32) bool {
				strs := make([]string, len(tu))
				for i, v := range tu {
					strs[i] = fmt.Sprint(v)
				}
				fmt.Fprintf(&facts, "%s(%s).\n", r.Name(), strings.Join(strs, ", "))
				return true
			})
		}
		q := New()
		// Declare relations first so arities/kinds match even for unused ones.
		for _, r := range p.Relations() {
			if _, err := q.Declare(r.Name(), r.Arity(), r.Kind()); err != nil {
				t.Fatal(err)
			}
		}
		if err := q.Parse("roundtrip.dl", text+facts.String()); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		if q.String() != text {
			t.Fatalf("seed %d: String() not stable:\n%s\nvs\n%s", seed, q.String(), text)
		}
		evalOK(t, p, context.Background())
		evalOK(t, q, context.Background())
		for _, r := range p.Relations() {
			a, b := engineContents(r), engineContents(q.Relation(r.Name()))
			if strings.Join(a, ";") != strings.Join(b, ";") {
				t.Fatalf("seed %d: %s differs after round trip", seed, r.Name())
			}
		}
	}
}

// flakyCtx reports cancellation from the k-th call of Err on.
type flakyCtx struct {
	context.Context
	calls, k int
}

func (c *flakyCtx) Err() error {
	c.calls++
	if c.calls >= c.k {
		return context.Canceled
	}
	return nil
}

// TestDifferentialInterrupted interrupts evaluations at random points and
// checks that the next successful Evaluate is still exact, and reports
// changes relative to the last successful one.
func TestDifferentialInterrupted(t *testing.T) {
	interrupted := 0
	for seed := int64(2000); seed < 2200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		p, edb, _ := randomProgram(rng)
		addRandomFacts(rng, edb, 10, nil)
		prev := map[string][]string{}
		for round := 0; round < 4; round++ {
			if round > 0 {
				addRandomFacts(rng, edb, 1+rng.Intn(6), nil)
			}
			res, err := p.Evaluate(&flakyCtx{Context: context.Background(), k: 1 + rng.Intn(8)})
			label := fmt.Sprintf("seed %d round %d", seed, round)
			switch {
			case errors.Is(err, context.Canceled):
				interrupted++
				if rng.Intn(2) == 0 { // interrupt the recovery too, possibly
					if _, err := p.Evaluate(&flakyCtx{Context: context.Background(), k: 1 + rng.Intn(12)}); err != nil &&
						!errors.Is(err, context.Canceled) && !errors.Is(err, ErrRetracted) {
						t.Fatalf("%s: %v", label, err)
					} else if err == nil || errors.Is(err, ErrRetracted) {
						prev = compareAll(t, p, prev, nil, nil, label+" (second try)")
					}
				}
				res, err = evalOK(t, p, context.Background())
				prev = compareAll(t, p, prev, res, err, label+" (after interrupt)")
			case err == nil || errors.Is(err, ErrRetracted):
				prev = compareAll(t, p, prev, res, err, label+" (completed)")
			default:
				t.Fatalf("%s: %v", label, err)
			}
		}
	}
	if interrupted < 50 {
		t.Fatalf("only %d evaluations were interrupted; the test does not exercise resumption", interrupted)
	}
}
