package analysis

import (
	"context"
	"path/filepath"
	"testing"

	"chorus/cfg"
	"chorus/interference"
)

// The handoff rule's premises (interference/handoff.go) on its fixtures:
// prec_handoff.c drops main's initial count before the assert, in both
// domains, and proves it; the worker of prec_handoff_late.c releases L
// before it writes count (H2), and main in prec_handoff_nolock.c reads
// count before it takes L (H3): nothing of count is dropped there. With the rule off,
// nothing at all, and prec_handoff.c's assert is not proven.
func TestHandoffDrops(t *testing.T) {
	for _, c := range []struct {
		file string
		want bool // count's cell dropped up to the assert's line (and the assert proven)
		off  bool
	}{
		{"prec_handoff.c", true, false},
		{"prec_handoff.c", false, true},
		{"prec_handoff_late.c", false, false},
		{"prec_handoff_nolock.c", false, false},
	} {
		for _, dom := range []string{"interval", "octagon"} {
			p, err := cfg.BuildFile(filepath.Join("..", "testdata", "check", c.file), cfg.Options{})
			if err != nil {
				t.Fatal(err)
			}
			opts := []Option{WithDomain(dom), WithChecks(cfg.AssertCheck)}
			if c.off {
				opts = append(opts, WithEngineOptions(interference.WithHandoffs(false)))
			}
			res, err := Analyze(context.Background(), p, opts...)
			if err != nil {
				t.Fatal(err)
			}
			var count *cfg.Var
			for _, v := range p.Vars {
				if v.Name == "count" {
					count = v
				}
			}
			if count == nil || len(res.Checks) != 1 {
				t.Fatalf("%s: no global count or not one assert", c.file)
			}
			chk := res.Checks[0]
			got := false
			for id, cells := range res.Engine.HandoffDrops() {
				if p.Locs[id].Pos.Line > chk.Check.Loc.Pos.Line {
					continue // (nolock: after main's acquire, past the assert)
				}
				for _, x := range cells {
					if x == int(res.Graph.Partition().CellOf(count)) {
						got = true
					}
				}
			}
			if got != c.want {
				t.Errorf("%s (%s, off %v): count dropped = %v, want %v", c.file, dom, c.off, got, c.want)
			}
			if proven := chk.Status == Proven; proven != c.want {
				t.Errorf("%s (%s, off %v): assert %v", c.file, dom, c.off, chk.Status)
			}
		}
	}
}
