package cfg

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"
)

// addrInInitializers takes addresses only in file-scope initializers and
// names a function and a global in a file-scope declaration that
// evaluates nothing (an array size): the walk must see the first two and
// may skip the third.
const addrInInitializers = `extern void __VERIFIER_assert(int);
int g, h;
int *p = &g;
static int inc(int x) { return x + 1; }
int (*fp)(int) = inc;
char sized[sizeof(&h) + sizeof(&inc)];
int main(void) {
  *p = fp(1);
  h = 1;
  __VERIFIER_assert(g == 2 && h == 1);
  return 0;
}
`

// lowersAlike lowers path with the walk of unitUsesOf set by unitWalk and
// with every declaration walked, and says whether the programs (or
// errors) are the same.
func lowersAlike(path string, src []byte, opts Options) bool {
	p1, err1 := Build(path, src, opts)
	mode := unitWalk
	unitWalk = walkEverything
	p2, err2 := Build(path, src, opts)
	unitWalk = mode
	if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
		return false
	}
	return reflect.DeepEqual(p1, p2)
}

// Skipping the file-scope declarations that evaluate nothing in
// unitUsesOf must not change the lowered program: every SV-COMP and
// DDVerify file and fixture, and addrInInitializers, lower to programs
// deeply equal to those of the walk of every declaration. Would catch a
// skipped declaration whose initializer takes an address or passes a
// function (skipDeclarations, which skips initializers too, changes
// addrInInitializers's program: the control below).
func TestUnitUsesSkipSameProgram(t *testing.T) {
	user := filepath.Join(t.TempDir(), "addr_in_initializers.c")
	if err := os.WriteFile(user, []byte(addrInInitializers), 0o644); err != nil {
		t.Fatal(err)
	}
	if !lowersAlike(user, []byte(addrInInitializers), Options{}) {
		t.Error("addrInInitializers lowers differently with the skip")
	}
	unitWalk = skipDeclarations
	same := lowersAlike(user, []byte(addrInInitializers), Options{})
	unitWalk = walkEvaluating
	if same {
		t.Error("addrInInitializers lowers the same with its initializers unwalked: the comparison cannot fail")
	}

	files := walkTestFiles(t) // (walkgen_test.go; no floppy: minutes to lower twice)
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !lowersAlike(path, src, Options{DataModel: files[path]}) {
			t.Errorf("%s: the program differs with the skip", path)
		}
	}
	t.Logf("%d files", len(paths))
}
