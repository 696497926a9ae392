package interference

import (
	"context"
	"fmt"
	"os"
	"testing"

	"chorus/cfg"
	"chorus/dfg"
)

// RoundTargets must hand over exactly GroupEdges of Round's edges: the
// same (cell, target)s in the same order, each with the same sources.
// Two engines play the same rounds side by side, one through Round, one
// through RoundTargets, in every game (exact, coarse, flow-insensitive)
// on the fixtures, SV-COMP tasks and generated programs (some with the
// once rule, some with join filters), and in the default game on two
// DDVerify drivers (the coarse game with millions of facts). It would
// catch a target listed out of its first-edge order, a writer missed or
// added (a join-filtered edge, a reader list of another fact), or
// writers sorted other than by location ID.
func TestTargetsAsGroupedEdges(t *testing.T) {
	type prog struct {
		name  string
		p     *cfg.Program
		games [][]Option
	}
	all := [][]Option{nil, {WithCoarse()}, {WithFlowInsensitive()}}
	var progs []prog
	names, ps := readerKillPrograms(t) // (readerkill_test.go)
	for i, p := range ps {
		progs = append(progs, prog{names[i], p, all})
	}
	if !testing.Short() {
		for _, d := range []string{"pcwd_pci", "cm206"} {
			f := "../../shared/corpus/ddverify/" + d + ".c"
			if _, err := os.Stat(f); err != nil {
				continue // no corpus
			}
			p, err := cfg.BuildFile(f, cfg.Options{DataModel: cfg.ILP32})
			if err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			progs = append(progs, prog{d, p, [][]Option{nil}})
		}
	}
	targets, edges, withOnce, withJoins, coarse := 0, 0, 0, 0, 0
	for _, pr := range progs {
		for _, game := range pr.games {
			engine := func() *Engine {
				part := dfg.NewPartition(pr.p, false)
				e, err := New(pr.p, dfgCells{dfg.New(pr.p, part), part}, append(game, WithoutZ3())...)
				if err != nil {
					t.Fatal(err)
				}
				return e
			}
			byEdges, byTargets := engine(), engine()
			if byTargets.once != nil {
				withOnce++
			}
			if byTargets.joinedAt != nil {
				withJoins++
			}
			inv := &weakening{}
			for inv.round = 0; inv.round < 4; inv.round++ {
				es, wantBlocks, wantSt, err := byEdges.Round(context.Background(), inv)
				if err != nil {
					t.Fatalf("%s: %v", pr.name, err)
				}
				ts, gotBlocks, gotSt, err := byTargets.RoundTargets(context.Background(), inv)
				if err != nil {
					t.Fatalf("%s: %v", pr.name, err)
				}
				if gotSt != wantSt || len(gotBlocks) != len(wantBlocks) {
					t.Fatalf("%s %v round %d: stats %+v, %d blocks; by edges %+v, %d blocks", pr.name, game, inv.round, gotSt, len(gotBlocks), wantSt, len(wantBlocks))
				}
				if gotSt.Coarse {
					coarse++
				}
				want := GroupEdges(es)
				if got, w := targetsString(ts), targetsString(want); got != w {
					t.Fatalf("%s %v round %d: targets differ from the grouped edges\n got  %.2000s\n want %.2000s", pr.name, game, inv.round, got, w)
				}
				targets += len(ts)
				edges += len(es)
			}
			byEdges.Close()
			byTargets.Close()
		}
	}
	if withOnce == 0 || withJoins == 0 || coarse == 0 {
		t.Errorf("not every path was played: %d engines with the once rule, %d with join filters, %d coarse rounds", withOnce, withJoins, coarse)
	}
	t.Logf("%d programs: %d targets of %d edges compared (%d engines with the once rule, %d with join filters, %d coarse rounds)", len(progs), targets, edges, withOnce, withJoins, coarse)
}

func targetsString(ts []Target) string {
	b := []byte{}
	for _, t := range ts {
		b = fmt.Appendf(b, "%d>%d:", t.Cell, t.Dst.ID)
		for _, s := range t.Srcs {
			b = fmt.Appendf(b, "%d,", s.ID)
		}
		b = append(b, ';')
	}
	return string(b)
}
