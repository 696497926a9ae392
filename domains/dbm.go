package domains

// Difference-bound matrices over the signed variables of an octagon and
// their closure algorithms.
//
// Layout. Variable x_k has two nodes: 2k stands for +x_k and 2k+1 for
// -x_k; bar(i) = i^1. A DBM over n variables is a full N×N matrix (N = 2n)
// stored row-major in a flat []int64; m[i*N+j] bounds v_j - v_i. We keep
// the full matrix rather than Miné's half matrix: the coherent twin
// m[bar(j)][bar(i)] is stored too, which doubles memory and the work of
// the cubic loop, but makes every row contiguous and the Floyd–Warshall
// inner loop a plain min-plus over two slices with no index arithmetic,
// no +∞ test and no bounds check (8 instructions per step on amd64),
// which runs at the speed of the bare min-plus loop (BenchmarkClosure vs
// BenchmarkFloorFW). A conditional store beats min() with a conditional
// move there: once the matrix is nearly closed, stores are rare and the
// branch is predictable. Cells of the solver are small, so memory is not
// the constraint; the half matrix would halve the work at the price of
// index arithmetic in the inner loop.
//
// Numbers. +∞ is the sentinel octInf = 2^62. Finite entries are kept in
// [-octBig, octBig] with octBig = 2^50: a constant above octBig is dropped
// (the constraint is forgotten) and one below -octBig is raised to
// -octBig; both only weaken the octagon, so they are sound. (Octagons
// therefore lose bounds beyond ±2^49 on a single variable; the interval
// domain keeps the full int64 range, and clients intersect with type
// ranges anyway.) With these limits the fast Floyd–Warshall needs no
// overflow check and no +∞ test in its inner loop: with N ≤ octFastMaxN
// a path of finite edges sums to at most N·octBig ≤ 2^59 in magnitude and
// a path through a +∞ edge stays above 2^62 - 2^59 > octInfThreshold, so
// after the loop "≥ octInfThreshold" still means +∞ and no sum overflows.
// Larger matrices use the checked loop.

const (
	octInf          int64 = 1 << 62
	octBig          int64 = 1 << 50
	octInfThreshold int64 = 1 << 61
	octFastMaxN           = 512
)

// newTopDBM returns the N×N matrix with no constraint.
func newTopDBM(N int) []int64 {
	m := make([]int64, N*N)
	for i := range m {
		m[i] = octInf
	}
	for i := 0; i < N; i++ {
		m[i*N+i] = 0
	}
	return m
}

// clampEntry brings a computed upper bound back into the representable
// range, rounding up (sound).
func clampEntry(v int64) int64 {
	switch {
	case v > octBig:
		return octInf
	case v < -octBig:
		return -octBig
	}
	return v
}

// satAdd adds two entries (each +∞ or within ±octBig), rounding up.
func satAdd(a, b int64) int64 {
	if a >= octInf || b >= octInf {
		return octInf
	}
	return clampEntry(a + b)
}

// tightClose replaces m by its tight closure (the canonical form of an
// integer octagon: every entry is the exact maximum of v_j - v_i over the
// integer points). It reports false when m has no integer point.
//
// Algorithm (Bagnara, Hill & Zaffanella, "An improved tight closure
// algorithm for integer octagonal constraints", VMCAI 2008): shortest-path
// closure (Floyd–Warshall, O(N³)), then tightening of the unary entries
// m[i][bar(i)] to even values, an emptiness test, and one strengthening
// pass m[i][j] = min(m[i][j], (m[i][bar i] + m[bar j][j]) / 2). Miné's
// original algorithm strengthens inside every iteration; BHZ prove the
// single final pass suffices, which leaves the cubic part a plain
// Floyd–Warshall.
func tightClose(m []int64, N int) bool {
	var ok bool
	if N <= octFastMaxN {
		ok = floydWarshallFast(m, N)
	} else {
		ok = floydWarshallChecked(m, N)
	}
	return ok && tightenStrengthen(m, N)
}

// floydWarshallFast is the min-plus closure without per-step checks (see
// the Numbers paragraph above). It stops early on a negative cycle.
func floydWarshallFast(m []int64, N int) bool {
	for k := 0; k < N; k++ {
		rowk := m[k*N : k*N+N]
		for i := 0; i < N; i++ {
			mik := m[i*N+k]
			if mik >= octInfThreshold {
				continue
			}
			rowi := m[i*N : i*N+N]
			rowi = rowi[:len(rowk)]
			for j, mkj := range rowk {
				if s := mik + mkj; s < rowi[j] {
					rowi[j] = s
				}
			}
		}
		for i := 0; i < N; i++ {
			if m[i*N+i] < 0 {
				return false
			}
		}
	}
	for i, v := range m {
		m[i] = clampEntry(v)
	}
	return true
}

// floydWarshallChecked is the same loop with explicit +∞ tests and
// rounding, valid for any N.
func floydWarshallChecked(m []int64, N int) bool {
	for k := 0; k < N; k++ {
		rowk := m[k*N : k*N+N]
		for i := 0; i < N; i++ {
			mik := m[i*N+k]
			if mik >= octInf {
				continue
			}
			rowi := m[i*N : i*N+N]
			for j, mkj := range rowk {
				if mkj >= octInf {
					continue
				}
				if s := clampEntry(mik + mkj); s < rowi[j] {
					rowi[j] = s
				}
			}
		}
		for i := 0; i < N; i++ {
			if m[i*N+i] < 0 {
				return false
			}
		}
	}
	return true
}

// tightenStrengthen finishes a tight closure on a shortest-path-closed m.
func tightenStrengthen(m []int64, N int) bool {
	for i := 0; i < N; i++ {
		p := i*N + (i ^ 1)
		if v := m[p]; v < octInf {
			m[p] = v &^ 1 // ⌊v/2⌋·2: 2x ≤ v on integers means 2x ≤ 2⌊v/2⌋
		}
	}
	for i := 0; i < N; i += 2 {
		a, b := m[i*N+i+1], m[(i+1)*N+i]
		if a < octInf && b < octInf && a+b < 0 {
			return false
		}
	}
	for i := 0; i < N; i++ {
		a := m[i*N+(i^1)]
		if a >= octInf {
			continue
		}
		row := m[i*N : i*N+N]
		for j := range row {
			b := m[(j^1)*N+j]
			if b >= octInf {
				continue
			}
			if s := (a + b) / 2; s < row[j] { // a, b even: exact
				row[j] = s
			}
		}
	}
	for i := 0; i < N; i++ {
		if m[i*N+i] < 0 {
			return false
		}
		m[i*N+i] = 0
	}
	return true
}

// addConstraintClosed adds v_b - v_a ≤ c (and its coherent twin
// v_bar(a) - v_bar(b) ≤ c) to a tightly closed m and restores tight
// closure in O(N²): a shortest path of the new graph uses the new edge
// or its twin at most once each, so with the old closure d the new
// distance is the minimum of d[i][j], d[i][a]+c+d[b][j],
// d[i][b̄]+c+d[ā][j], and the two paths using both edges. Tightening and
// strengthening then give the tight closure (BHZ 2008, incremental
// version). scratch must hold 4N entries (nil: allocated).
func addConstraintClosed(m []int64, N, a, b int, c int64, scratch []int64) bool {
	if c > octBig {
		return true
	}
	c = clampEntry(c)
	if c >= m[a*N+b] {
		return true
	}
	if len(scratch) < 4*N {
		scratch = make([]int64, 4*N)
	}
	ab, bb := a^1, b^1
	colA, colBb := scratch[:N], scratch[N:2*N]
	rowB, rowAb := scratch[2*N:3*N], scratch[3*N:4*N]
	for i := 0; i < N; i++ {
		colA[i], colBb[i] = m[i*N+a], m[i*N+bb]
	}
	copy(rowB, m[b*N:b*N+N])
	copy(rowAb, m[ab*N:ab*N+N])
	dBBb, dAbA := m[b*N+bb], m[ab*N+a]
	for i := 0; i < N; i++ {
		// p1: best i→b through a new edge; p2: best i→ā likewise.
		p1 := min(satAdd(colA[i], c), satAdd(satAdd(satAdd(colBb[i], c), dAbA), c))
		p2 := min(satAdd(colBb[i], c), satAdd(satAdd(satAdd(colA[i], c), dBBb), c))
		if p1 >= octInf && p2 >= octInf {
			continue
		}
		row := m[i*N : i*N+N]
		for j := range row {
			if s := min(satAdd(p1, rowB[j]), satAdd(p2, rowAb[j])); s < row[j] {
				row[j] = s
			}
		}
	}
	for i := 0; i < N; i++ {
		if m[i*N+i] < 0 {
			return false
		}
	}
	return tightenStrengthen(m, N)
}

// octCons is the DBM constraint v_b - v_a ≤ c.
type octCons struct {
	a, b int
	c    int64
}

// sumCons is the constraint v_p + v_q ≤ k (p = q: 2·v_p ≤ k).
func sumCons(p, q int, k int64) octCons { return octCons{a: q ^ 1, b: p, c: k} }

// node returns the node of s·x_v (s = ±1).
func node(v int, s int64) int {
	if s > 0 {
		return 2 * v
	}
	return 2*v + 1
}

// upperSum is the bound of v_p + v_q read from a closed m (+∞ as Bound).
func upperSum(m []int64, N, p, q int) Bound {
	v := m[(q^1)*N+p]
	if v >= octInf {
		return PlusInf
	}
	return Finite(v)
}

// addAll adds constraints to a tightly closed m: one incremental closure
// each when they are few, else all entries then one full closure.
func addAll(m []int64, N int, cs []octCons) bool {
	if len(cs) <= 4 {
		scratch := make([]int64, 4*N)
		for _, k := range cs {
			if !addConstraintClosed(m, N, k.a, k.b, k.c, scratch) {
				return false
			}
		}
		return true
	}
	changed := false
	for _, k := range cs {
		if k.c > octBig {
			continue
		}
		c := clampEntry(k.c)
		if c < m[k.a*N+k.b] {
			m[k.a*N+k.b] = c
			m[(k.b^1)*N+(k.a^1)] = c
			changed = true
		}
	}
	return !changed || tightClose(m, N)
}

// closeVar restores the tight closure of m when only the constraints of
// variable x changed: m restricted to the other nodes must be tightly
// closed; the rows and columns of x's nodes p, p̄ are arbitrary. A
// shortest path visits p and p̄ at most once each, so it is enough to
// (1) extend x's edges by one closed segment of the rest, (2) close the
// 2×2 block of x through the rest, (3) let paths from x pass through the
// other node of x, (4) route every pair of other nodes through x. Each
// step is O(N²); tightening and strengthening follow (BHZ 2008).
func closeVar(m []int64, N, x int) bool {
	X := [2]int{2 * x, 2*x + 1}
	inX := func(i int) bool { return i>>1 == x }
	// Original edges of x: rows and columns.
	edge := make([]int64, 4*N)
	rowE := [2][]int64{edge[:N], edge[N : 2*N]}
	colE := [2][]int64{edge[2*N : 3*N], edge[3*N:]}
	for k, u := range X {
		copy(rowE[k], m[u*N:u*N+N])
		for i := 0; i < N; i++ {
			colE[k][i] = m[i*N+u]
		}
	}
	// (1) d(u, r) = min over r' of edge(u, r') + M(r', r); d(r, u) alike.
	for k, u := range X {
		for r := 0; r < N; r++ {
			if inX(r) {
				continue
			}
			out, in := int64(octInf), int64(octInf)
			for r2 := 0; r2 < N; r2++ {
				if inX(r2) {
					continue
				}
				out = min(out, satAdd(rowE[k][r2], m[r2*N+r]))
				in = min(in, satAdd(m[r*N+r2], colE[k][r2]))
			}
			m[u*N+r], m[r*N+u] = out, in
		}
	}
	// (2) the x block: direct edge or a detour through the rest.
	for k, u := range X {
		for k2, u2 := range X {
			d := rowE[k][u2] // the diagonal edge is 0 unless inconsistent
			for r := 0; r < N; r++ {
				if !inX(r) {
					d = min(d, satAdd(m[u*N+r], colE[k2][r]))
				}
			}
			if k == k2 && d < 0 {
				return false
			}
			m[u*N+u2] = d
		}
	}
	if satAdd(m[X[0]*N+X[1]], m[X[1]*N+X[0]]) < 0 {
		return false
	}
	// (3) paths from (to) x through x's other node.
	for k, u := range X {
		o := X[1-k]
		duo, dou := m[u*N+o], m[o*N+u]
		for r := 0; r < N; r++ {
			if inX(r) {
				continue
			}
			m[u*N+r] = min(m[u*N+r], satAdd(duo, m[o*N+r]))
			m[r*N+u] = min(m[r*N+u], satAdd(m[r*N+o], dou))
		}
	}
	// (4) every other pair through p or p̄.
	p, q := X[0], X[1]
	for r := 0; r < N; r++ {
		if inX(r) {
			continue
		}
		rp, rq := m[r*N+p], m[r*N+q]
		if rp >= octInf && rq >= octInf {
			continue
		}
		row := m[r*N : r*N+N]
		for s := 0; s < N; s++ {
			if inX(s) {
				continue
			}
			if v := min(satAdd(rp, m[p*N+s]), satAdd(rq, m[q*N+s])); v < row[s] {
				row[s] = v
			}
		}
	}
	for i := 0; i < N; i++ {
		if m[i*N+i] < 0 {
			return false
		}
	}
	return tightenStrengthen(m, N)
}
