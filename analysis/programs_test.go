package analysis

import (
	"fmt"
	"path/filepath"
	"testing"

	"chorus/cfg"
	"chorus/oracle/gen"
)

// testProgram is a program a comparison test builds afresh for each run.
type testProgram struct {
	name string
	src  func() (*cfg.Program, error)
}

// fixturesAndGenerated lists the C files of dirs (at least 10 in all) and
// the programs of generator seeds 1..60, the programs the tests comparing
// two ways of computing the same result run on.
func fixturesAndGenerated(t *testing.T, dirs ...string) []testProgram {
	var progs []testProgram
	var files []string
	for _, dir := range dirs {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.c"))
		files = append(files, fs...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d fixtures", len(files))
	}
	for _, f := range files {
		progs = append(progs, testProgram{filepath.Base(f), func() (*cfg.Program, error) { return cfg.BuildFile(f, cfg.Options{}) }})
	}
	for seed := int64(1); seed <= 60; seed++ {
		src := gen.Generate(seed, gen.Options{}).C()
		progs = append(progs, testProgram{fmt.Sprintf("gen%d", seed), func() (*cfg.Program, error) {
			return cfg.Build("gen.c", []byte(src), cfg.Options{})
		}})
	}
	return progs
}
