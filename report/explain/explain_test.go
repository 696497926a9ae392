package explain

import "testing"

func TestStripComment(t *testing.T) {
	for in, want := range map[string]string{
		"x = 1; // set":            "x = 1;",
		`s = "http://a"; // url`:   `s = "http://a";`,
		`c = '/'; // slash`:        `c = '/';`,
		`s = "a\"//b";`:            `s = "a\"//b";`,
		"plain":                    "plain",
		"__VERIFIER_assert(x); //": "__VERIFIER_assert(x);",
	} {
		if got := stripComment(in); got != want {
			t.Errorf("stripComment(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDotString(t *testing.T) {
	if got := dotString(`a "b" \c`, "d\ne"); got != `"a \"b\" \\c\ld e\l"` {
		t.Errorf("dotString = %s", got)
	}
}
