package interp

import (
	"bufio"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"chorus/cfg"
)

const corpusDir = "../../../shared/corpus/svcomp"

// corpusVerdictDoubts lists safe-expected tasks in which a concrete run
// reaches an assertion failure, with why the run is right: they are
// logged, not failed, and the integrator should correct the corpus.
var corpusVerdictDoubts = map[string]string{
	"37_stack_lock_p0_vs_concur.i": "as transcribed, push() reads \"if(newTop == 0) if(!(0)) {abort();} else {...}\": the else binds to the inner if, so push never pushes and thr1's check top != 0 fails at once; a gcc build of the .i (with __VERIFIER_error printing) reaches the error too. The SV-COMP original has assume_abort_if_not(0); there",
}

// TestCorpusRandomRuns runs every SV-COMP task with an unreach-call
// property under a few seeded random schedules and inputs, with the
// points-to coverage check on. It fails on what can only be a frontend or
// interpreter bug: an access outside the Deref's cells, an IR
// inconsistency, or a failed assertion in a task whose expected verdict
// is true (a concrete run reaching reach_error in a correct program).
// Runs that need more than the step budget just stop.
func TestCorpusRandomRuns(t *testing.T) {
	manifest := filepath.Join(corpusDir, "MANIFEST.tsv")
	f, err := os.Open(manifest)
	if err != nil {
		t.Skip("corpus not available")
	}
	defer f.Close()
	type task struct {
		file  string
		model cfg.DataModel
		safe  bool
	}
	seen := map[string]bool{}
	var tasks []task
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		col := strings.Split(sc.Text(), "\t")
		if len(col) < 6 || col[3] != "unreach-call" {
			continue
		}
		path := filepath.Join(corpusDir, col[0], col[2])
		if seen[path] {
			continue
		}
		seen[path] = true
		m := cfg.LP64
		if col[5] == "ILP32" {
			m = cfg.ILP32
		}
		tasks = append(tasks, task{path, m, col[4] == "true"})
	}
	counts := map[string]int{}
	for _, tk := range tasks {
		name := filepath.Base(tk.file)
		src, err := os.ReadFile(tk.file)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		p, err := cfg.Build(tk.file, src, cfg.Options{DataModel: tk.model})
		if err != nil {
			counts["frontend error"]++
			continue
		}
		for seed := uint64(1); seed <= 3; seed++ {
			r := rand.New(rand.NewPCG(seed, 7))
			res, err := Run(p, Random(seed), RunOptions{
				MaxSteps: 20_000,
				Machine:  Options{CheckCells: true, MaxInstances: 4},
				Inputs:   func(ThreadID, *cfg.Loc) int64 { return int64(r.IntN(5)) - 1 },
			})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				break
			}
			counts[res.Reason.String()]++
			if res.Error != nil {
				msg := res.Error.Event.Text
				switch {
				case strings.HasPrefix(msg, "points-to:"), strings.HasPrefix(msg, "IR inconsistency"), strings.HasPrefix(msg, "internal error"):
					t.Errorf("%s (seed %d): %s", name, seed, res.Error.Event)
				default:
					counts["error: "+firstWords(msg)]++
					if os.Getenv("INTERP_CORPUS_VERBOSE") != "" {
						t.Logf("%s (seed %d): %s", name, seed, res.Error.Event)
					}
				}
			}
			for _, fl := range res.Failures {
				if tk.safe && fl.Event.Check.Kind == cfg.AssertCheck && len(p.Assumptions) == 0 {
					if why, ok := corpusVerdictDoubts[name]; ok {
						t.Logf("%s: expected safe, but: %s", name, why)
						continue
					}
					t.Errorf("%s (seed %d): assertion fails in a task expected safe: %s", name, seed, fl.Event)
				}
			}
		}
	}
	t.Logf("%d tasks: %v", len(tasks), counts)
}

func firstWords(s string) string {
	w := strings.Fields(s)
	if len(w) > 3 {
		w = w[:3]
	}
	return strings.Join(w, " ")
}
