package analysis

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"chorus/cfg"
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
// interference (twice, the second time from the memo), on the edges as
// interferenceInto lists them and on the same edges reversed (not sorted
// by source: the map path); with hubs expanded and without hubs.
func TestWritesMatchReference(t *testing.T) {
	files, _ := filepath.Glob("../testdata/check/*.c")
	if len(files) < 10 {
		t.Fatalf("only %d fixtures", len(files))
	}
	compared, shared := 0, 0
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
			seen := map[uint64]bool{}
			for _, chk := range p.Checks {
				if chk.Loc == nil {
					continue
				}
				es := interferenceInto(r.Graph, chk.Loc)
				if len(es) == 0 {
					continue
				}
				if _, _, _, filter := checkSubject(chk); !filter {
					h := sourceCellHash(es)
					if seen[h] {
						shared++
					}
					seen[h] = true
				}
				rev := slices.Clone(es)
				slices.Reverse(rev)
				for _, c := range []CheckResult{{Check: chk, Interference: es}, {Check: nil, Interference: rev}} {
					want := r.writesReference(c)
					for range 2 {
						if got := r.Writes(c); !slices.Equal(got, want) {
							t.Fatalf("%s at %v: Writes\n%v\nwant\n%v", filepath.Base(f), chk.Pos, got, want)
						}
					}
					compared++
				}
			}
		}
	}
	if compared == 0 || shared == 0 {
		t.Fatalf("compared %d lists, %d shared", compared, shared)
	}
	t.Logf("compared %d lists, %d shared an earlier check's edges", compared, shared)
}
