package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestMessagesInSourceTerms: SV-COMP's error-call pattern reads as an
// assertion; no IR temporary appears in a message.
func TestMessagesInSourceTerms(t *testing.T) {
	src := `typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
void reach_error(void);
int g = 0;
void *w(void *a) {
  int x = g;
  if (!(x + 1 < 3)) reach_error();
  if (g > 5) {
    ERROR: reach_error();
  }
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  g = 5;
  g = g + 3;
  return 0;
}
`
	f := writeTemp(t, "sv.c", src)
	_, out, _ := runCmd("check", "--no-cache", "--checks", "assert,overflow", f)
	for _, want := range []string{
		"sv.c:7:21: warning: assertion x + 1 < 3 not proven (reach_error() reachable)",
		"sv.c:9:12: warning: assertion !(g > 5) not proven (reach_error() reachable)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in\n%s", want, out)
		}
	}
	if tempRE := `(^|[^A-Za-z_])t[0-9]+ in `; strings.Contains(out, " t1 in") || matches(tempRE, out) {
		t.Errorf("IR temporary in a message:\n%s", out)
	}
}

func TestIfCondition(t *testing.T) {
	for text, want := range map[string]string{
		"  if (!(a[i] == (b + 1))) ":         "a[i] == (b + 1)",
		"if (x > 0 && f(y))":                 "!(x > 0 && f(y))",
		"if (!(a) && (b)) ":                  "!(!(a) && (b))",
		"for (;;) { if (c)\n   {":            "!(c)",
		"  if ( !( p ->q\n  <= 3 ) ) {\n ":   "p ->q <= 3",
		"  while (!(a)) ":                    "",
		"  if (unbalanced ":                  "",
		"  if (!(cond)) { if (other) { ERR ": "!(other)",
	} {
		got := ""
		if cond, ok := ifCondition(text); ok {
			if inner, neg := negated(cond); neg {
				got = inner
			} else {
				got = "!(" + cond + ")"
			}
		}
		if got != want {
			t.Errorf("%q: got %q, want %q", text, got, want)
		}
	}
}

func matches(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }
