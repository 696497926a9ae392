package domains

import "fmt"

// Concat lays values side by side: the result's variables are those of
// vals[0], then those of vals[1], and so on, with no relation between
// different parts (the product of cells the solver builds). It is ⊥ if
// any part is ⊥. All parts must come from dom. For octagons this costs
// O(N²) (the block-diagonal matrix of closed parts is closed up to one
// strengthening pass), against O(N³) for AddDims + Project + Meet.
func Concat(dom Domain, vals ...Value) Value {
	n := 0
	bottom := false
	for _, v := range vals {
		n += v.Dim()
		bottom = bottom || v.IsBottom()
	}
	if bottom {
		return dom.Bottom(n)
	}
	switch dom.Name() {
	case "interval":
		ivs := make([]Interval, 0, n)
		var hs []hole
		for _, v := range vals {
			iv, ok := v.(*IntervalValue)
			if !ok {
				panic(fmt.Sprintf("domains: Concat of interval values got %T", v))
			}
			hs = shiftHoles(hs, iv.ne, len(ivs))
			ivs = append(ivs, iv.ivs...)
		}
		return &IntervalValue{ivs: ivs, ne: hs}
	case "octagon":
		N := 2 * n
		m := newTopDBM(N)
		off := 0
		var hs []hole
		var ds []dhole
		for _, v := range vals {
			o, ok := v.(*OctagonValue)
			if !ok {
				panic(fmt.Sprintf("domains: Concat of octagon values got %T", v))
			}
			K := 2 * o.n
			cm := o.cm()
			for i := 0; i < K; i++ {
				copy(m[(off+i)*N+off:(off+i)*N+off+K], cm[i*K:i*K+K])
			}
			hs = shiftHoles(hs, o.ne, off/2)
			ds = shiftDiff(ds, o.dne, off/2)
			off += K
		}
		if !tightenStrengthen(m, N) {
			return dom.Bottom(n)
		}
		return &OctagonValue{n: n, m: m, closed: true, ne: hs, dne: ds}
	}
	// Another domain: the generic construction.
	acc := dom.Top(0)
	for _, v := range vals {
		d0, k := acc.Dim(), v.Dim()
		keep := make([]int, d0+k)
		for j := range d0 {
			keep[j] = k + j
		}
		for j := range k {
			keep[d0+j] = j
		}
		acc = acc.AddDims(k).Meet(v.AddDims(d0).Project(keep))
	}
	return acc
}
