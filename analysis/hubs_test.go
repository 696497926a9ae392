package analysis

import (
	"context"
	"strings"
	"testing"
)

// Hubs change the graph, not the equations: a hub passes on the join of
// its sources exactly as the direct edges would. The invariants may still
// differ a little, because the hub nodes change the weak topological
// order, hence where and when widening happens (both results are sound:
// the soundness oracle runs with WithEveryHub too). With a hub for every
// block of edges, every fixture's check statuses must equal those with
// direct edges, in both domains; on 60 generated programs the
// differences are counted and logged.
func TestHubsKeepStatuses(t *testing.T) {
	progs := fixturesAndGenerated(t, "../testdata/check")
	hubsMade, invDiff, statusDiff := 0, 0, 0
	for _, pr := range progs {
		for _, dom := range []string{"interval", "octagon"} {
			run := func(opts ...Option) (*Result, map[int]string) {
				p, err := pr.src()
				if err != nil {
					t.Fatalf("%s: %v", pr.name, err)
				}
				r, err := Analyze(context.Background(), p, append(opts, WithDomain(dom))...)
				if err != nil {
					t.Fatalf("%s %s: %v", pr.name, dom, err)
				}
				inv := map[int]string{}
				for _, l := range p.Locs {
					inv[l.ID] = r.Solver.At(l).String()
				}
				return r, inv
			}
			direct, dinv := run(WithHubs(false))
			hub, hinv := run(WithEveryHub())
			hubsMade += hub.Graph.NumHubs()
			for id, s := range dinv {
				if hinv[id] != s {
					invDiff++
				}
			}
			for i, c := range direct.Checks {
				if hub.Checks[i].Status != c.Status {
					if strings.HasSuffix(pr.name, ".c") {
						t.Errorf("%s %s: check %v: direct %v, hubs %v", pr.name, dom, c.Check.Pos, c.Status, hub.Checks[i].Status)
					}
					t.Logf("%s %s: check %v: direct %v, hubs %v", pr.name, dom, c.Check.Pos, c.Status, hub.Checks[i].Status)
					statusDiff++
				}
			}
		}
	}
	if hubsMade == 0 {
		t.Fatal("no hub was made")
	}
	t.Logf("%d programs, %d hubs; %d invariants and %d check statuses differ", len(progs), hubsMade, invDiff, statusDiff)
}
