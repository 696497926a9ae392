package analysis

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"chorus/cfg"
	"chorus/dfg"
)

// writesReference is Writes the plain way (maps keyed by edges and by
// whole Writes, no sharing between checks): what the interned, shared
// Writes must equal.
func (r *Result) writesReference(c CheckResult) []Write {
	subject, op, k, filter := checkSubject(c.Check)
	var out []Write
	seen := map[Write]bool{}
	emitted := map[[2]int]bool{}
	for _, e := range c.Interference {
		key := [2]int{e.Src.ID, int(e.Cell)}
		if emitted[key] {
			continue
		}
		w := Write{Pos: e.Src.Pos, Var: r.cellName(e.Cell)}
		if a, isAsg := e.Src.Act.(*cfg.Assign); isAsg && a.Src.ExprType().IsInt() && r.Solver != nil {
			iv := r.Solver.At(e.Src).Eval(a.Src)
			if filter && r.carriesSubject(e, c.Check.Loc, subject) && !canViolate(iv, op, k) {
				continue
			}
			w.Value = intervalString(iv)
		}
		emitted[key] = true
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Writes equals writesReference on every check of every fixture with
// interference (twice, the second time from the memo): on the edges as
// interferenceInto lists them, on the same edges reversed (an explicit
// list, taken in its order), and as an unproven check whose edges Writes
// walks itself (writesInto: hubs read once as their distinct writers);
// with hubs for every block of edges and without hubs.
func TestWritesMatchReference(t *testing.T) { testWritesMatchReference(t, true) }

// Past the memo budget Writes recomputes (no list kept, none shared): the
// same lists.
func TestWritesMatchReferencePastMemoBudget(t *testing.T) {
	defer func(old int) { writesMemoBudget = old }(writesMemoBudget)
	writesMemoBudget = 3
	testWritesMatchReference(t, false)
}

// testWritesMatchReference compares Writes with writesReference; memo:
// some checks must share an earlier check's list.
func testWritesMatchReference(t *testing.T, memo bool) {
	files, _ := filepath.Glob("../testdata/check/*.c")
	if len(files) < 10 {
		t.Fatalf("only %d fixtures", len(files))
	}
	compared, fromHubs, filtered, collapsed, shared := 0, 0, 0, 0, 0
	for _, f := range files {
		for _, opt := range []Option{WithEveryHub(), WithHubs(false)} {
			p, err := cfg.BuildFile(f, cfg.Options{})
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			r, err := Analyze(context.Background(), p, opt, WithDomain("interval"))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, chk := range p.Checks {
				if chk.Loc == nil {
					continue
				}
				es := interferenceInto(r.Graph, chk.Loc)
				if len(es) == 0 {
					continue
				}
				want := r.writesReference(CheckResult{Check: chk, Interference: es})
				subject, _, _, filter := checkSubject(chk)
				carried := false
				walkInterferenceGroups(r.Graph, chk.Loc, func(_ int, he dfg.Edge) {
					if r.Graph.HubSources(he.Src) != nil {
						fromHubs++
					}
					carried = carried || filter && r.carriesSubject(he, chk.Loc, subject)
				})
				if carried {
					filtered++
				}
				rev := slices.Clone(es)
				slices.Reverse(rev)
				for _, c := range []CheckResult{{Check: chk, Interference: es}, {Check: nil, Interference: rev}, {Check: chk, Status: Unproven}} {
					want := want
					if c.Check == nil {
						want = r.writesReference(c)
					}
					if c.Interference == nil {
						r.writes = nil // the memo holds the explicit list's result
					}
					for range 2 {
						if got := r.Writes(c); !slices.Equal(got, want) {
							t.Fatalf("%s at %v (%v): Writes\n%v\nwant\n%v", filepath.Base(f), chk.Pos, c.Interference != nil, got, want)
						}
					}
					compared++
				}
				for hub, hw := range r.wr.hubWriters {
					if len(hw) < len(r.Graph.HubSources(hub)) {
						collapsed++
					}
				}
				r.wr.hubWriters = nil
			}
			if r.wr != nil {
				shared += r.wr.shared
			}
		}
	}
	if compared == 0 || fromHubs == 0 || filtered == 0 || collapsed == 0 || memo != (shared > 0) {
		t.Fatalf("compared %d lists, %d edges from hubs (%d hubs whose sources share writes), %d checks filter writes, %d lists shared", compared, fromHubs, collapsed, filtered, shared)
	}
	t.Logf("compared %d lists, %d edges from hubs (%d hubs whose sources share writes), %d checks filter writes, %d lists shared", compared, fromHubs, collapsed, filtered, shared)
}
