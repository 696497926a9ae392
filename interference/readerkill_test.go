package interference

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"chorus/cfg"
	"chorus/dfg"
	"chorus/oracle/gen"
)

// relCells shows a relational dfg.Graph (mixed cells) to the engine as
// package analysis does: Mod is SharedMod, and the reader kills come
// from LocalKills.
type relCells struct {
	g    *dfg.Graph
	part *dfg.Partition
}

func (a relCells) Mod(l *cfg.Loc) []int        { return ints(a.g.SharedMod(l)) }
func (a relCells) Uses(l *cfg.Loc) []int       { return ints(a.g.In(l)) }
func (a relCells) CellOf(v *cfg.Var) int       { return int(a.part.CellOf(v)) }
func (a relCells) LocalKills(l *cfg.Loc) []int { return ints(a.g.LocalKills(l)) }
func (a relCells) Global(c int) bool {
	return c > int(dfg.ControlCell) && c < a.part.NumCells() && a.part.Cell(dfg.CellID(c)).Global
}

// readerKillPrograms: the test programs, the SV-COMP tasks when ../shared
// is present, and generated programs, lowered.
func readerKillPrograms(t *testing.T) (names []string, progs []*cfg.Program) {
	var files []string
	for _, pat := range []string{"../testdata/check/*.c", "../testdata/threads/*.c", "../../shared/corpus/svcomp/*/*.i"} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	sort.Strings(files)
	for _, f := range files {
		if fi, err := os.Stat(f); err != nil || fi.Size() > 60_000 {
			continue
		}
		if p, err := cfg.BuildFile(f, cfg.Options{}); err == nil {
			names, progs = append(names, filepath.Base(f)), append(progs, p)
		}
	}
	for seed := int64(1); seed <= 100; seed++ {
		src := gen.Generate(seed, gen.Options{Calls: int(seed % 3)}).C()
		p, err := cfg.Build(fmt.Sprintf("gen%d.c", seed), []byte(src), cfg.Options{ShareAll: seed%4 == 0})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		names, progs = append(names, fmt.Sprintf("gen%d", seed)), append(progs, p)
	}
	return names, progs
}

// readerKillRounds runs rounds 0..3 of weakening invariants over the
// relational partition of p and returns the DFG edges of each round.
func readerKillRounds(t *testing.T, name string, p *cfg.Program, opts ...Option) []map[string]bool {
	t.Helper()
	part := dfg.NewPartition(p, true)
	e, err := New(p, relCells{dfg.New(p, part), part}, append(opts, WithoutZ3(), WithMaxTuples(0))...)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var rounds []map[string]bool
	inv := &weakening{}
	for inv.round = 0; inv.round < 4; inv.round++ {
		es, _, _, err := e.Round(context.Background(), inv)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m := map[string]bool{}
		for _, ed := range es {
			m[fmt.Sprint(ed.Src.ID, " ", ed.Cell, " ", ed.Dst.ID)] = true
		}
		rounds = append(rounds, m)
	}
	return rounds
}

// The reader kills (readerkill.go) are the same rule in every evaluation
// of the exact game: the datalog rules, the worklist and the game on bits
// give the same edges, round by round, on relational partitions (where
// mixed cells make the kills matter); the coarse game gives a superset of
// them; and the kills only remove edges: with them, every edge is one the
// game without them finds too. Some program must lose an edge (the rule
// is exercised).
func TestReaderKillsAgreeAcrossGames(t *testing.T) {
	names, progs := readerKillPrograms(t)
	lost, withKills := 0, 0
	for i, p := range progs {
		name := names[i]
		bits := readerKillRounds(t, name, p)
		dl := readerKillRounds(t, name, p, WithDatalog(true))
		wl := readerKillRounds(t, name, p, WithDatalog(false))
		coarse := readerKillRounds(t, name, p, WithCoarse())
		none := readerKillRounds(t, name, p, WithReaderKills(false))
		seenB, seenN := map[string]bool{}, map[string]bool{}
		for r := range bits {
			for k := range bits[r] {
				seenB[k] = true
			}
			for k := range none[r] {
				seenN[k] = true
			}
			if fmt.Sprint(sortedKeys(bits[r])) != fmt.Sprint(sortedKeys(dl[r])) || fmt.Sprint(sortedKeys(bits[r])) != fmt.Sprint(sortedKeys(wl[r])) {
				t.Errorf("%s round %d: bits %v\n datalog %v\n worklist %v", name, r, sortedKeys(bits[r]), sortedKeys(dl[r]), sortedKeys(wl[r]))
			}
		}
		seenC := map[string]bool{}
		for r := range coarse {
			for k := range coarse[r] {
				seenC[k] = true
			}
		}
		for k := range seenB {
			if !seenN[k] {
				t.Errorf("%s: edge %s only with the reader kills", name, k)
			}
			if !seenC[k] {
				t.Errorf("%s: coarse game misses edge %s", name, k)
			}
		}
		if len(seenB) < len(seenN) {
			lost += len(seenN) - len(seenB)
			withKills++
		}
	}
	if lost == 0 {
		t.Errorf("the reader kills removed no edge on %d programs", len(progs))
	}
	t.Logf("%d programs; the reader kills removed %d edges in %d of them", len(progs), lost, withKills)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
