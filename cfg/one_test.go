package cfg

import (
	"os"
	"testing"
	"time"
)

func TestOne(t *testing.T) {
	path := os.Getenv("CFG_ONE")
	if path == "" {
		t.Skip()
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
