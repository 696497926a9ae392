package cfg

import (
	"strings"
	"testing"
)

// TestLineMarkers: errors in preprocessed input point at the original
// file and line (gcc -E's "# N "file"" markers and #line), and say where
// in the .i file they are.
func TestLineMarkers(t *testing.T) {
	src := `# 1 "orig.c"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "orig.c"
# 1 "/usr/include/stdio.h" 1 3 4
extern int printf(const char *, ...);
# 2 "orig.c" 2

int main(void) {
  int x = 1 +;
  return x;
}
`
	_, err := Build("t.i", []byte(src), Options{DataModel: LP64})
	if err == nil || !strings.HasPrefix(err.Error(), "orig.c:4:") || !strings.Contains(err.Error(), "t.i:10 in the preprocessed file") {
		t.Errorf("error %v, want it at orig.c:4", err)
	}
	src2 := "int a;\n#line 100 \"gen.c\"\nint main(void) { return y; }\n"
	_, err = Build("t2.c", []byte(src2), Options{DataModel: LP64})
	if err == nil || !strings.HasPrefix(err.Error(), "gen.c:100:") || !strings.Contains(err.Error(), "hint:") || strings.Contains(err.Error(), ".go:") {
		t.Errorf("error %v, want it at gen.c:100 with a hint", err)
	}
	_, err = Build("t3.c", []byte("struct s {\n  bool failed;\n};\n"), Options{DataModel: LP64})
	if err == nil || !strings.Contains(err.Error(), "t3.c:2:8: error: unexpected identifier") || !strings.Contains(err.Error(), "after bool, which is not a type here") {
		t.Errorf("undeclared type: %v", err)
	}
	for _, tc := range []struct {
		line, want int
		file       string
	}{{1, 0, ""}, {2, 1, "orig.c"}, {6, 1, "/usr/include/stdio.h"}, {8, 2, "orig.c"}, {10, 4, "orig.c"}} {
		f, l, ok := originalPos([]byte(src), tc.line)
		if ok != (tc.file != "") || f != tc.file || ok && l != tc.want {
			t.Errorf("line %d: %q:%d %v, want %q:%d", tc.line, f, l, ok, tc.file, tc.want)
		}
	}
}
