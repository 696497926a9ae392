package report

import (
	"reflect"
	"testing"
)

func TestParseIgnores(t *testing.T) {
	src := []byte(`int a; // chorus:ignore[assert, bounds] reviewed by J.
/* chorus:ignore[all] generated code */
char *s = "chorus:ignore[assert] not a comment";
x++; // chorus:ignore[nonsense]
`)
	got := ParseIgnores("f.c", src)
	want := []Ignore{
		{File: "f.c", Line: 1, Kinds: []string{KindAssert, KindBounds}, Reason: "reviewed by J."},
		{File: "f.c", Line: 2, Kinds: Kinds, Reason: "generated code"},
		{File: "f.c", Line: 4, Bad: []string{"nonsense"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
}

func TestApplyIgnores(t *testing.T) {
	f := File{File: "f.c", Checks: []Check{
		{Kind: KindAssert, File: "f.c", Line: 3, Status: Unproven},
		{Kind: KindBounds, File: "f.c", Line: 3, Status: Unproven},
		{Kind: KindAssert, File: "f.c", Line: 9, Status: Proven},
		{Kind: KindAssert, File: "f.c", Line: 20, Status: Unproven},
	}}
	igs := map[string][]Ignore{"f.c": {
		{File: "f.c", Line: 2, Kinds: []string{KindAssert}, Reason: "r"}, // the line above check 0
		{File: "f.c", Line: 9, Kinds: []string{KindAssert}},              // on a proven check: unused
		{File: "f.c", Line: 18, Kinds: []string{KindAssert}},             // two lines above: unused
	}}
	ApplyIgnores(&f, igs)
	if f.Checks[0].Suppressed == nil || f.Checks[0].Suppressed.Reason != "r" {
		t.Error("check 0 not suppressed")
	}
	if f.Checks[1].Suppressed != nil || f.Checks[3].Suppressed != nil {
		t.Error("a check of another kind or line suppressed")
	}
	if len(f.UnusedIgnores) != 2 || f.UnusedIgnores[0].Line != 9 || f.UnusedIgnores[1].Line != 18 {
		t.Errorf("unused: %+v", f.UnusedIgnores)
	}
	s := Summarize([]File{f})
	if k := s.ByKind[KindAssert]; k.Suppressed != 1 || k.Unproven != 1 || k.Proven != 1 {
		t.Errorf("summary %+v", *k)
	}
}

func TestFingerprintsDistinguishRepeats(t *testing.T) {
	f := File{Checks: []Check{
		{Kind: KindAssert, File: "f.c", Function: "w", Condition: "assertion x > 0", Line: 5},
		{Kind: KindAssert, File: "f.c", Function: "w", Condition: "assertion x > 0", Line: 9},
	}}
	Fingerprints(&f)
	a, b := f.Checks[0].Fingerprint, f.Checks[1].Fingerprint
	f.Checks[0].Line, f.Checks[1].Line = 15, 19
	Fingerprints(&f)
	if a == b || f.Checks[0].Fingerprint != a || f.Checks[1].Fingerprint != b {
		t.Errorf("fingerprints %s %s -> %s %s", a, b, f.Checks[0].Fingerprint, f.Checks[1].Fingerprint)
	}
}
