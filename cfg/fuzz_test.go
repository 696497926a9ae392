package cfg

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// FuzzBuild feeds arbitrary bytes to Build: it must return a program that
// passes Sanity or an *Error, never panic or hang. Inputs are bounded in
// size; Build bounds nesting and program size itself.
func FuzzBuild(f *testing.F) {
	seeds := []string{
		"int main() { return 0; }",
		"int g; int main() { int i; for (i = 0; i < 10; i++) g += i; return g; }",
		"#include <pthread.h>\nint g; pthread_mutex_t m;\nvoid *t(void *a) { pthread_mutex_lock(&m); g++; pthread_mutex_unlock(&m); return 0; }\nint main() { pthread_t h; pthread_create(&h, 0, t, 0); pthread_join(h, 0); return g; }",
		"struct S { int a[3]; struct S *n; } s; int main() { struct S *p = &s; p->a[2] = 1; switch (p->a[2]) { case 1: goto L; default: break; } L: return s.a[1] ? 1 : 2; }",
		"int f(int n) { return n <= 0 ? 0 : n + f(n - 1); } int main() { return f(3); }",
		"void __VERIFIER_assert(int); int __VERIFIER_nondet_int(void); int main() { int x = __VERIFIER_nondet_int(); __VERIFIER_assert(x * 2 / x == 2); return 0; }",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	// The three smallest SV-COMP files as seeds, when present.
	if files, err := filepath.Glob(filepath.Join(corpusDir, "svcomp", "*", "*.i")); err == nil {
		var datas [][]byte
		for _, path := range files {
			if data, err := os.ReadFile(path); err == nil {
				datas = append(datas, data)
			}
		}
		sort.Slice(datas, func(i, j int) bool { return len(datas[i]) < len(datas[j]) })
		for i := 0; i < len(datas) && i < 3; i++ {
			f.Add(datas[i])
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 64<<10 {
			return
		}
		p, err := Build("fuzz.c", src, Options{DataModel: ILP32, MaxLocs: 20000})
		if err != nil {
			e, ok := err.(*Error)
			if !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if strings.HasPrefix(e.Msg, "internal error") {
				t.Fatalf("%v\ninput:\n%s", e, src)
			}
			return
		}
		if err := Sanity(p); err != nil {
			t.Fatalf("sanity: %v\ninput:\n%s", err, src)
		}
	})
}
