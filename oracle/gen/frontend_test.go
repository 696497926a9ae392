package gen

import (
	"fmt"
	"testing"

	"chorus/cfg"
)

// TestFrontendAccepts lowers generated programs with chorus's own frontend:
// the generator exists to exercise it, so everything it emits must lower.
func TestFrontendAccepts(t *testing.T) {
	for oi, o := range optionSets {
		n := int64(100)
		if oi > 0 {
			n = 25
		}
		for seed := range n {
			name := fmt.Sprintf("o%d_s%d.c", oi, seed)
			p := Generate(seed, o)
			prog, err := cfg.Build(name, []byte(p.C()), cfg.Options{})
			if err != nil {
				t.Fatalf("%v", err)
			}
			// Every extern the programs use is one the frontend knows.
			if len(prog.Assumptions) > 0 {
				t.Fatalf("%s: frontend assumed %v", name, prog.Assumptions)
			}
			asserts, checks := 0, 0
			p.Walk(func(_ *Func, s Stmt) {
				if _, ok := s.(*Assert); ok {
					asserts++
				}
			})
			for _, c := range prog.Checks {
				if c.Kind == cfg.AssertCheck {
					checks++
				}
			}
			if checks != asserts {
				t.Fatalf("%s: %d assertions lowered to %d assert checks", name, asserts, checks)
			}
			if len(prog.Templates) < 2 {
				t.Fatalf("%s: %d templates, want main and at least one thread", name, len(prog.Templates))
			}
		}
	}
}
