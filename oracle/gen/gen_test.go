package gen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const nSeeds = 200

func TestDeterministic(t *testing.T) {
	distinct := map[string]bool{}
	for seed := range int64(50) {
		a, b := Generate(seed, Options{}).C(), Generate(seed, Options{}).C()
		if a != b {
			t.Fatalf("seed %d: two generations differ", seed)
		}
		if c := Generate(seed, Options{}).Clone().C(); c != a {
			t.Fatalf("seed %d: Clone prints differently", seed)
		}
		distinct[a] = true
	}
	if len(distinct) < 45 {
		t.Errorf("only %d distinct programs for 50 seeds", len(distinct))
	}
}

// optionSets covers the defaults, bigger programs and overflow.
var optionSets = []Options{
	{},
	{Globals: 4, Mutexes: 3, Threads: 3, Locals: 3, MaxStmts: 5, MaxDepth: 3, MaxLoopBound: 3, MaxInstances: 6},
	{Mutexes: -1, Locals: -1, Threads: 1, AllowOverflow: true},
	{Joins: true},
}

// TestCompiles runs gcc -fsyntax-only on every generated program (in
// batches: one gcc per batch of files) with warnings that reveal undeclared
// or misused identifiers turned into errors.
func TestCompiles(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	var files []string
	for oi, o := range optionSets {
		n := int64(nSeeds)
		if oi > 0 {
			n = nSeeds / 4
		}
		for seed := range n {
			f := filepath.Join(dir, fmt.Sprintf("o%d_s%d.c", oi, seed))
			if err := os.WriteFile(f, []byte(Generate(seed, o).C()), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	compile(t, gcc, files)
}

func compile(t *testing.T, gcc string, files []string) {
	t.Helper()
	for len(files) > 0 {
		n := min(len(files), 100)
		args := append([]string{"-fsyntax-only", "-std=c11", "-Wall", "-Wno-unused",
			"-Werror", "-pedantic-errors"}, files[:n]...)
		if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
			t.Fatalf("gcc: %v\n%s", err, firstLines(string(out), 30))
		}
		files = files[n:]
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestShape checks the structural promises of the package comment on many
// seeds, and that every feature shows up somewhere.
func TestShape(t *testing.T) {
	seen := map[string]int{}
	for oi, o := range optionSets {
		od := o.withDefaults()
		for seed := range int64(nSeeds) {
			p := Generate(seed, o)
			name := fmt.Sprintf("options %d seed %d", oi, seed)
			checkShape(t, name, p, od, seen, false)
		}
	}
	for _, f := range []string{"Assign", "Havoc", "Assume", "Assert", "If", "Else", "Loop",
		"Lock", "LockViaPtr", "Atomic", "Spawn", "SpawnLoop", "NestedSpawn", "Join",
		"PlainAssert", "ReachError", "Overflow", "InitMutexes", "AtomicFunc", "Byte", "ArgPtr", "CustomLocks"} {
		if seen[f] == 0 {
			t.Errorf("feature %s never generated", f)
		}
	}
}

// checkShape checks p; shrunk programs may keep a template no one spawns.
func checkShape(t *testing.T, name string, p *Prog, o Options, seen map[string]int, shrunk bool) {
	t.Helper()
	globals := map[string]bool{}
	for _, g := range p.Globals {
		globals[g.Name] = true
		if g.Byte {
			seen["Byte"]++
		}
	}
	if p.InitMutexes {
		seen["InitMutexes"]++
	}
	if p.CustomLocks {
		seen["CustomLocks"]++
	}
	total := 0
	inst := p.Instances()
	for _, th := range p.Threads {
		n := inst[th.Name]
		if n == 0 && !shrunk {
			t.Errorf("%s: template %s never spawned", name, th.Name)
		}
		total += n
	}
	if total > o.MaxInstances {
		t.Errorf("%s: %d instances > %d", name, total, o.MaxInstances)
	}
	if !o.AllowOverflow {
		if m := p.MaxMagnitude(); m >= 1<<24 {
			t.Errorf("%s: magnitude bound %d is not small", name, m)
		}
	}
	for _, fn := range p.Funcs() {
		locals := map[string]bool{}
		byteVar := map[string]bool{}
		for _, l := range fn.Locals {
			locals[l.Name] = true
			byteVar[l.Name] = l.Byte
		}
		if fn.ArgPtr {
			seen["ArgPtr"]++
			locals[ArgDeref] = true
		}
		spawned := map[string]bool{}
		for _, s := range fn.Body {
			switch s := s.(type) {
			case *Spawn:
				spawned[s.Handle] = true
				var target *Func
				for _, th := range p.Threads {
					if th.Name == s.Thread {
						target = th
					}
				}
				switch {
				case target == nil:
					t.Errorf("%s: spawn of unknown %s", name, s.Thread)
				case target.ArgPtr != (s.Arg != ""):
					t.Errorf("%s: spawn of %s with argument %q", name, s.Thread, s.Arg)
				case s.Arg != "":
					ok := false
					for _, g := range p.Globals {
						ok = ok || g.Name == s.Arg && !g.Byte
					}
					if !ok {
						t.Errorf("%s: spawn argument %s is not an int global", name, s.Arg)
					}
				}
				if fn != p.Main {
					seen["NestedSpawn"]++
				}
			case *Join:
				if !spawned[s.Handle] {
					t.Errorf("%s: %s joins %s before its spawn", name, fn.Name, s.Handle)
				}
			}
		}
		var rec func(b []Stmt, top, atomic bool, held map[string]bool)
		rec = func(b []Stmt, top, atomic bool, held map[string]bool) {
			for _, s := range b {
				for _, e := range Exprs(s) {
					for _, r := range Refs(e) {
						if !globals[r] && !locals[r] {
							t.Errorf("%s: %s uses undeclared %s", name, fn.Name, r)
						}
					}
				}
				switch s := s.(type) {
				case *Assign:
					seen["Assign"]++
					if b, ok := s.RHS.(*Bin); ok && (b.Op == "*" && !isConst(b.R) || isConst(b.R) && b.R.(*Const).V > 1<<20) {
						seen["Overflow"]++
						if !o.AllowOverflow {
							t.Errorf("%s: overflow-prone assignment without AllowOverflow", name)
						}
					}
				case *Havoc:
					seen["Havoc"]++
					if !locals[s.Var] || s.Lo > s.Hi || byteVar[s.Var] && s.Lo < 0 {
						t.Errorf("%s: bad havoc %+v", name, s)
					}
				case *Assume:
					seen["Assume"]++
					for _, r := range Refs(s.Cond) {
						if !globals[r] {
							t.Errorf("%s: assume on non-global %s", name, r)
						}
					}
				case *Assert:
					seen["Assert"]++
					switch s.Form {
					case PlainAssert:
						seen["PlainAssert"]++
					case ReachError:
						seen["ReachError"]++
					}
				case *If:
					seen["If"]++
					if len(s.Else) > 0 {
						seen["Else"]++
					}
				case *Loop:
					seen["Loop"]++
					if s.Bound < 1 || s.Bound > o.MaxLoopBound {
						t.Errorf("%s: loop bound %d", name, s.Bound)
					}
				case *Lock:
					seen["Lock"]++
					if s.ViaPtr {
						seen["LockViaPtr"]++
					}
					if atomic || held[s.Mutex] {
						t.Errorf("%s: lock of %s inside atomic or while held", name, s.Mutex)
					}
					h := map[string]bool{s.Mutex: true}
					for m := range held {
						h[m] = true
					}
					rec(s.Body, false, atomic, h)
					continue
				case *Atomic:
					seen["Atomic"]++
					if atomic {
						t.Errorf("%s: nested atomic", name)
					}
					if s.AsFunc {
						seen["AtomicFunc"]++
						walkStmts(s.Body, func(x Stmt) {
							for _, e := range Exprs(x) {
								for _, r := range Refs(e) {
									if !globals[r] {
										t.Errorf("%s: atomic function uses local %s", name, r)
									}
								}
							}
						})
					}
					rec(s.Body, false, true, held)
					continue
				case *Spawn, *Join:
					if sp, ok := s.(*Spawn); ok {
						seen["Spawn"]++
						if sp.Count > 1 {
							seen["SpawnLoop"]++
						}
					} else {
						seen["Join"]++
					}
					if !top {
						t.Errorf("%s: spawn/join not at top level", name)
					}
				}
				for _, c := range children(s) {
					rec(c, false, atomic, held)
				}
			}
		}
		rec(fn.Body, true, false, map[string]bool{})
	}
}

func isConst(e Expr) bool { _, ok := e.(*Const); return ok }

// assertsOn reports whether p has an assertion reading variable v.
func assertsOn(p *Prog, v string) bool {
	found := false
	p.Walk(func(_ *Func, s Stmt) {
		if a, ok := s.(*Assert); ok {
			for _, r := range Refs(a.Cond) {
				found = found || r == v
			}
		}
	})
	return found
}

func TestShrinkToMinimal(t *testing.T) {
	// A big program with an assertion on g0 inside a thread.
	var p *Prog
	for seed := int64(0); p == nil; seed++ {
		q := Generate(seed, optionSets[1])
		inThread := false
		for _, th := range q.Threads {
			walkStmts(th.Body, func(s Stmt) {
				if a, ok := s.(*Assert); ok && len(Refs(a.Cond)) > 1 && assertsOn(&Prog{Main: &Func{Body: []Stmt{a}}}, "g0") {
					inThread = true
				}
			})
		}
		if inThread && len(q.Threads) > 1 && q.Size() > 60 {
			p = q
		}
	}
	before := p.C()
	calls := 0
	pred := func(q *Prog) bool { calls++; return assertsOn(q, "g0") }
	got := Shrink(p, pred)
	if p.C() != before {
		t.Fatal("Shrink modified its input")
	}
	want := "int main(void) {\n  __VERIFIER_assert(g0);\n  return 0;\n}\n"
	c := got.C()
	if !strings.HasSuffix(c, want) || len(got.Threads) != 0 || len(got.Globals) != 1 ||
		len(got.Mutexes) != 0 || len(got.Main.Locals) != 0 || got.Globals[0].Init != 0 {
		t.Fatalf("not minimal (size %d -> %d, %d predicate calls):\n%s", p.Size(), got.Size(), calls, c)
	}
	if again := Shrink(p, func(q *Prog) bool { return assertsOn(q, "g0") }).C(); again != c {
		t.Errorf("Shrink is not deterministic")
	}
	t.Logf("size %d -> %d in %d predicate calls", p.Size(), got.Size(), calls)
}

func TestShrinkKeepsWellFormed(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not installed")
	}
	dir := t.TempDir()
	var files []string
	for seed := range int64(10) {
		p := Generate(seed, optionSets[1])
		// Keep a join of a looped spawn and a lock through a pointer when
		// the program has them, so shrinking must keep spawn, join and
		// pointer declarations consistent.
		hasJoinedLoop := func(q *Prog) bool {
			n := 0
			for _, s := range q.Main.Body {
				if sp, ok := s.(*Spawn); ok && sp.Count > 1 {
					for _, s2 := range q.Main.Body {
						if j, ok := s2.(*Join); ok && j.Handle == sp.Handle {
							n++
						}
					}
				}
			}
			return n > 0
		}
		hasPtrLock := func(q *Prog) bool {
			found := false
			q.Walk(func(_ *Func, s Stmt) {
				if l, ok := s.(*Lock); ok && l.ViaPtr {
					found = true
				}
			})
			return found
		}
		preds := []func(*Prog) bool{hasJoinedLoop, hasPtrLock,
			func(q *Prog) bool { return hasJoinedLoop(q) || hasPtrLock(q) || len(q.Threads) > 0 }}
		for i, pred := range preds {
			if !pred(p) {
				continue
			}
			q := Shrink(p, pred)
			if !pred(q) || q.Size() >= p.Size() {
				t.Errorf("seed %d pred %d: shrink result size %d (from %d), pred %v", seed, i, q.Size(), p.Size(), pred(q))
			}
			checkShape(t, fmt.Sprintf("shrunk seed %d pred %d", seed, i), q, optionSets[1].withDefaults(), map[string]int{}, true)
			f := filepath.Join(dir, fmt.Sprintf("s%d_p%d.c", seed, i))
			if err := os.WriteFile(f, []byte(q.C()), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
	}
	if len(files) < 5 {
		t.Fatalf("only %d shrink cases applied", len(files))
	}
	compile(t, gcc, files)
}

func TestShrinkNotFailing(t *testing.T) {
	p := Generate(1, Options{})
	if q := Shrink(p, func(*Prog) bool { return false }); q != p {
		t.Errorf("Shrink of a passing program changed it")
	}
}

// TestDeleteStmtsIndices: deleting one statement by range and by rewrite
// agree for every statement, so both number statements alike.
func TestDeleteStmtsIndices(t *testing.T) {
	for seed := range int64(10) {
		p := Generate(seed, Options{})
		n := 0
		p.Walk(func(*Func, Stmt) { n++ })
		for k := range n {
			a := p.deleteStmts([]int{k}).C()
			b := p.rewrite(k, func(Stmt) []Stmt { return nil }).C()
			if a != b {
				t.Fatalf("seed %d stmt %d: deleteStmts and rewrite differ", seed, k)
			}
		}
		total := 0
		for _, b := range p.blocks() {
			total += len(b)
		}
		if total != n {
			t.Fatalf("seed %d: blocks cover %d statements, Walk %d", seed, total, n)
		}
	}
}
