package cfg

import (
	"reflect"
	"testing"
)

// TestAssertShapes: each library's assert shape and abort() tests become
// one assertion check named by the source expression; abort() is not an
// assertion in SV-COMP units (which declare reach_error).
func TestAssertShapes(t *testing.T) {
	src := `extern void __assert_fail(const char *, const char *, unsigned, const char *);
extern void __assert(const char *, const char *, int, const char *);
extern void __assert_rtn(const char *, const char *, int, const char *);
extern void abort(void);
extern int printf(const char *, ...);
int g;
int main(void) {
  int x = g;
  ((void) sizeof ((x > 1) ? 1 : 0), __extension__ ({ if (x > 1) ; else __assert_fail ("x > 1", "f.c", 9, __func__); }));
  ((x < 9) ? (void) (0) : __assert_fail ("x < 9", "f.c", 10, __func__));
  ((void)((x != 3) || (__assert_fail("x != 3", "f.c", 11, __func__), 0)));
  ((x) ? (void)0 : __assert(__func__, "f.c", 12, "x"));
  (__builtin_expect(!(x + 1 > 0), 0) ? __assert_rtn(__func__, "f.c", 13, "x + 1 > 0") : (void)0);
  if (!(x != 4)) abort();
  if (x == 5) { printf("no\n"); abort(); }
  if (x == 6) { g = 1; } else abort();
  if (x == 7) { return 1; abort(); }
  return 0;
}
`
	p := lowerModel(t, src, LP64)
	var got []string
	for _, c := range p.Checks {
		if c.Kind == AssertCheck {
			got = append(got, c.Msg)
		}
	}
	want := []string{"assertion x > 1", "assertion x < 9", "assertion x != 3", "assertion x", "assertion x + 1 > 0",
		"assertion x != 4", "assertion !(x == 5)", "assertion x == 6"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("assertions %q\nwant %q", got, want)
	}

	// SV-COMP's convention: abort() stops a path, reach_error() is the error.
	sv := `extern void reach_error(void);
extern void abort(void);
int g;
int main(void) {
  int x = g;
  if (!(x != 4)) abort();
  if (!(x < 9)) { reach_error(); abort(); }
  return 0;
}
`
	p = lowerModel(t, sv, LP64)
	got = nil
	for _, c := range p.Checks {
		got = append(got, c.Msg)
	}
	if want := []string{"reach_error() reachable"}; !reflect.DeepEqual(got, want) {
		t.Errorf("SV-COMP unit: checks %q, want %q", got, want)
	}
}
