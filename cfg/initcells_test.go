package cfg

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestCellInits pins what the summary cells of initialised globals start
// with: the values of their own instances only (an array of structs
// interleaves its fields' cells), 0 where an instance has no initializer,
// any value where a union member of another type initialises the bytes.
func TestCellInits(t *testing.T) {
	src := `
struct pt { int x, y; };
struct pt t[3] = {{1, 2}, {3, 4}, {5, 6}};
struct pt zeros[3] = {{7}};
struct pt skip[3] = {[1] = {7, 8}, [2] = {9, 10}, [0] = {11, 12}};
struct { struct { int x, y; } p[2]; int z; } nest = {{{1, 2}, {3, 4}}, 5};
union u { int w[2]; long long q; } pun[2] = {{{1, 2}}, {{3, 4}}};
union v { long long q; int w[2]; } punq[1] = {{5}};
char s[4] = "ab";
int main(void) { return t[0].x + zeros[0].x + skip[0].x + nest.z + pun[0].w[0] + punq[0].w[0] + s[0]; }
`
	p := lower(t, src)
	got := map[string]string{}
	for _, v := range p.Vars {
		if v.InitCell == nil {
			continue
		}
		var vals []string
		for _, e := range v.InitCell.Values {
			vals = append(vals, fmt.Sprint(e.(*Const).Value))
		}
		got[v.Name] = fmt.Sprintf("%s any=%v zero=%v", strings.Join(vals, ","), v.InitCell.Any, v.InitCell.Zero)
	}
	want := map[string]string{
		"t[*].x":      "1,3,5 any=false zero=false",
		"t[*].y":      "2,4,6 any=false zero=false",
		"zeros[*].x":  "7 any=false zero=true",
		"zeros[*].y":  " any=false zero=true",
		"skip[*].x":   "7,9,11 any=false zero=false",
		"skip[*].y":   "8,10,12 any=false zero=false",
		"nest.p[*].x": "1,3 any=false zero=false",
		"nest.p[*].y": "2,4 any=false zero=false",
		// the int w[*] and the long long q share bytes 0-7 of each element
		"pun[*].w[*]": "1,2,3,4 any=false zero=false",
		"pun[*].q":    " any=true zero=false",
		// q's bytes 4-7 are also w[1]'s, whose canonical bytes are w[0]'s
		// and so q's 0-3: at another distance, so q counts as partly
		// initialised (any value: imprecise, sound)
		"punq[*].q":    " any=true zero=false",
		"punq[*].w[*]": " any=true zero=false",
		"s[*]":         "97,98,0 any=false zero=true", // "ab" and its NUL; s[3] implicit
	}
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s: no InitCell (cells with one: %v)", name, slices.Sorted(maps.Keys(got)))
		} else if g != w {
			t.Errorf("%s: InitCell %q, want %q", name, g, w)
		}
	}
}
