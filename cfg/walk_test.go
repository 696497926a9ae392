package cfg

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"modernc.org/cc/v4"
)

// bodyNodes keeps walkAST's nodes of a body in walkAST's order, and
// unitLarge, which stops adding bodies once past shareUnitNodes, answers
// as the full count of every body's nodes compared with the limit does,
// at limits just below, at and above each unit's size and at fractions of
// it. Would catch a kept list that is not the walk's, a count stopped one
// body early, a memo kept across limits, or bodies counted twice.
func TestUnitLargeIsTheFullCount(t *testing.T) {
	files, _ := filepath.Glob("../testdata/check/*.c")
	drivers, _ := filepath.Glob(filepath.Join(corpusDir, "ddverify", "*.c"))
	for _, d := range drivers {
		if filepath.Base(d) != "floppy.c" {
			files = append(files, d)
		}
	}
	if len(files) == 0 {
		t.Skip("no fixtures")
	}
	saved := shareUnitNodes
	defer func() { shareUnitNodes = saved }()
	checked := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		opts := Options{}
		if filepath.Base(filepath.Dir(f)) == "ddverify" {
			opts.DataModel = ILP32
		}
		ast, err := translateFile(f, src, opts)
		if err != nil {
			continue // fixtures of bad input
		}
		b := newBuilder(f, []*cc.AST{ast}, opts.DataModel, 0)
		b.uses = map[*cc.AST]*unitUses{}
		b.collect()
		total := 0
		for name, fd := range b.funcs {
			var walked []cc.Node
			walkAST(fd.CompoundStatement, func(n cc.Node) { walked = append(walked, n) })
			if kept := b.bodyNodes(fd); !slices.Equal(kept, walked) {
				t.Fatalf("%s: %s: bodyNodes has %d nodes, walkAST %d or another order", f, name, len(kept), len(walked))
			}
			total += len(walked)
		}
		for _, limit := range []int{total - 1, total, total + 1, total / 2, total / 3, 1, 0} {
			shareUnitNodes = limit
			fresh := newBuilder(f, []*cc.AST{ast}, opts.DataModel, 0)
			fresh.uses = b.uses
			fresh.collect()
			if got, want := fresh.unitLarge(), total > limit; got != want {
				t.Errorf("%s: %d nodes, limit %d: unitLarge = %v, want %v", f, total, limit, got, want)
			}
			// The same builder asked again under another limit.
			shareUnitNodes = limit + 1
			if got, want := fresh.unitLarge(), total > limit+1; got != want {
				t.Errorf("%s: %d nodes, limit %d after %d: unitLarge = %v, want %v", f, total, limit+1, limit, got, want)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Error("no file translated")
	}
}
