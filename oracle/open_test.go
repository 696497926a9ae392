package oracle

import (
	"context"
	"strings"
	"testing"

	"chorus/oracle/gen"
)

// Issue 10: open programs (libraries without main, callbacks handed to an
// unknown external). For generated programs of both kinds, no check that
// fails in a closed completion (a concrete client, a concrete external)
// is proven or unreachable in chorus's analysis of the open program; and
// the oracle catches DropCallbacks (the analysis without the callback and
// client spawns) on some of them.
func TestOpenPrograms(t *testing.T) {
	n := 24
	if testing.Short() {
		n = 8
	}
	c := Config{Domains: []string{"interval"}}
	failing := 0
	for i := 0; i < n; i++ {
		for _, kind := range []gen.OpenKind{gen.OpenCallback, gen.OpenLibrary, gen.OpenHavoc} {
			op := gen.GenerateOpen(int64(i), kind)
			pr := c.CheckOpen(context.Background(), op, "")
			for _, v := range pr.Violations {
				t.Errorf("%s %v\n%s", kind, v, op.Concrete)
			}
			if pr.AnalysisError != "" {
				t.Logf("seed %d %s: %s", i, kind, pr.AnalysisError)
			}
		}
	}
	// The mutation.
	m := Config{Domains: []string{"interval"}, Mutation: DropCallbacks}
	caught := map[gen.OpenKind]int{}
	for i := 0; i < n; i++ {
		for _, kind := range []gen.OpenKind{gen.OpenCallback, gen.OpenLibrary} {
			op := gen.GenerateOpen(int64(i), kind)
			pr := m.CheckOpen(context.Background(), op, "")
			for _, v := range pr.Violations {
				if v.Kind != "open-check" {
					t.Errorf("mutated: %v", v)
				}
			}
			if len(pr.Violations) > 0 {
				caught[kind]++
				failing++
			}
		}
	}
	if caught[gen.OpenCallback] == 0 || caught[gen.OpenLibrary] == 0 {
		t.Errorf("DropCallbacks caught on %d callback and %d library programs of %d each; want some of each", caught[gen.OpenCallback], caught[gen.OpenLibrary], n)
	}
	t.Logf("DropCallbacks caught on %d callback and %d library programs of %d each", caught[gen.OpenCallback], caught[gen.OpenLibrary], n)
}

// Unknown calls that may write what they are handed (gen.OpenHavoc: the
// havocs of dfg/havoc.go, whose old value the analysis does not track):
// the oracle catches DropHavocs (every havoc made a no-op) on some of the
// generated programs, in both domains.
func TestOpenHavocMutation(t *testing.T) {
	n := 24
	if testing.Short() {
		n = 8
	}
	for _, dom := range []string{"interval", "octagon"} {
		m := Config{Domains: []string{dom}, Mutation: DropHavocs}
		caught := 0
		for i := 0; i < n; i++ {
			op := gen.GenerateOpen(int64(i), gen.OpenHavoc)
			pr := m.CheckOpen(context.Background(), op, "")
			for _, v := range pr.Violations {
				if v.Kind != "open-check" {
					t.Errorf("mutated: %v", v)
				}
			}
			if len(pr.Violations) > 0 {
				caught++
			}
		}
		if caught == 0 {
			t.Errorf("%s: DropHavocs caught on none of %d havoc programs", dom, n)
		}
		t.Logf("%s: DropHavocs caught on %d of %d havoc programs", dom, caught, n)
	}
}

// The two versions share the open program's text; the completion is
// appended after its last line.
func TestGenerateOpenShape(t *testing.T) {
	for i := int64(0); i < 20; i++ {
		for _, kind := range []gen.OpenKind{gen.OpenCallback, gen.OpenLibrary} {
			op := gen.GenerateOpen(i, kind)
			if !strings.HasPrefix(op.Concrete, op.Abstract) || op.Concrete == op.Abstract {
				t.Fatalf("seed %d %s: the concrete program does not extend the abstract one", i, kind)
			}
			if kind == gen.OpenLibrary && strings.Contains(op.Abstract, "main(") {
				t.Errorf("seed %d: the library has a main", i)
			}
			if kind == gen.OpenCallback && strings.Contains(op.Abstract, "ext_submit(void *(*f)(void *), void *arg) {") {
				t.Errorf("seed %d: the external has a body in the open program", i)
			}
			if again := gen.GenerateOpen(i, kind); again.Concrete != op.Concrete {
				t.Errorf("seed %d %s: not deterministic", i, kind)
			}
		}
	}
}
