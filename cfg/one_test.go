package cfg

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestOne lowers the file named by $CFG_ONE (ILP32) and checks it; with
// $CFG_DUMP set it prints the IR. A debugging aid, skipped by default.
func TestOne(t *testing.T) {
	path := os.Getenv("CFG_ONE")
	if path == "" {
		t.Skip("set CFG_ONE=file.c")
	}
	start := time.Now()
	p, err := BuildFile(path, Options{DataModel: ILP32})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d locs %d vars %d objects %d templates in %v", len(p.Locs), len(p.Vars), len(p.Objects), len(p.Templates), time.Since(start))
	if err := Sanity(p); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("CFG_DUMP") != "" {
		p.Write(os.Stdout)
	}
}

// BenchmarkBuild lowers two corpus files: an SV-COMP task and the largest
// ddverify driver.
func BenchmarkBuild(b *testing.B) {
	for _, rel := range []string{"svcomp/pthread-ext/02_inc_cas.i", "ddverify/floppy.c"} {
		path := filepath.Join(corpusDir, rel)
		if _, err := os.Stat(path); err != nil {
			b.Skip("corpus not present")
		}
		b.Run(filepath.Base(rel), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := BuildFile(path, Options{DataModel: ILP32}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
