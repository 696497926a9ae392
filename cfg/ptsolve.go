package cfg

// The points-to solver: the IR's actions become a constraint graph once,
// then sets are propagated along its edges by difference (each node
// passes on only what it gained since it was last processed), so the
// work grows with the graph and the final sets, not with the number of
// times an action would be re-evaluated.
//
// Nodes are the variables (by Var.ID), the pseudo-variable <reach> (by
// len(Vars)) and one node per subexpression that can hold a pointer.
// Edges:
//   - copy edges n → m with a pointwise transform of each location
//     (identity, any offset, constant displacement, stride): pts(m) ⊇
//     f(pts(n));
//   - dereference edges on an address node a: for each location that
//     arrives in pts(a), the cells it denotes are connected by copy edges
//     (a load cell → m, a store m → cell, memcpy's object-wide copies, and
//     the closure of what unknown code reaches);
//   - an access whose address node ends up empty touches the <unknown>
//     object (as cellsOfSet says): after the worklist drains, such
//     accesses are connected to <unknown>'s cells and solving resumes.

import (
	"container/heap"
	"math/bits"
	"sort"
)

// transform kinds of copy edges
const (
	tID     uint8 = iota
	tAny          // every location at anyOff
	tConst        // displacement by a constant (k)
	tStride       // displacement by a multiple of k
)

type pedge struct {
	dst  int32
	kind uint8
	k    int64
}

// deref kinds
const (
	dLoad    uint8 = iota // cells(l, t) → node
	dStore                // node → cells(l, t)
	dCopyIn               // every cell of l's object → node (memcpy source)
	dCopyOut              // node → every cell of l's object (memcpy destination)
	dReach                // the closure of <reach>: cells of l's object → <reach> (any offset), pointer cells ⊇ {unknown}
)

type pderef struct {
	node int32 // the other end
	kind uint8
	t    *Type // access type (nil: any)
	// unk: connected to <unknown> because the address denoted no cell;
	// hit: some location of the address denoted a cell
	unk, hit bool
}

type psolver struct {
	a      *pta
	copies [][]pedge
	derefs [][]int32 // by address node: indices into all
	all    []pderef
	addrOf []int32 // address node of all[i]
	done   []ptset // by node: what was already propagated
	work   []int32 // a binary heap by rank
	inWork []bool
	rank   []int32           // by node: topological position of its component (last collapse)
	objs   map[[2]int32]bool // dReach: (closure node, object) pairs already expanded
	// Cycles of identity copy edges are collapsed into one node
	// (union-find: rep); nedges counts edges added since the last
	// collapse, which runs when they reach nextCollapse.
	rep          []int32
	nedges       int
	nextCollapse int
}

func (s *psolver) find(n int32) int32 {
	for s.rep[n] != n {
		s.rep[n] = s.rep[s.rep[n]]
		n = s.rep[n]
	}
	return n
}

func (s *psolver) newNode() int32 {
	a := s.a
	a.pts = append(a.pts, nil)
	s.copies = append(s.copies, nil)
	s.derefs = append(s.derefs, nil)
	s.done = append(s.done, nil)
	s.inWork = append(s.inWork, false)
	s.rank = append(s.rank, 0)
	s.rep = append(s.rep, int32(len(a.pts)-1))
	return int32(len(a.pts) - 1)
}

func (s *psolver) push(n int32) {
	if !s.inWork[n] {
		s.inWork[n] = true
		s.work = append(s.work, n)
		heap.Fix(workHeap{s}, len(s.work)-1)
	}
}

func (s *psolver) pop() int32 {
	n := s.work[0]
	last := len(s.work) - 1
	s.work[0] = s.work[last]
	s.work = s.work[:last]
	if last > 0 {
		heap.Fix(workHeap{s}, 0)
	}
	return n
}

// reheap restores the heap after the ranks changed.
func (s *psolver) reheap() { heap.Init(workHeap{s}) }

// workHeap orders the worklist (container/heap) in topological order of
// the graph's components (sources first), so that a node usually passes
// on what it gained from all its predecessors at once. push and pop
// manage the slice themselves (heap.Fix), so no node is boxed.
type workHeap struct{ s *psolver }

func (h workHeap) Len() int { return len(h.s.work) }
func (h workHeap) Less(i, j int) bool {
	return h.s.rank[h.s.work[i]] < h.s.rank[h.s.work[j]]
}
func (h workHeap) Swap(i, j int) { h.s.work[i], h.s.work[j] = h.s.work[j], h.s.work[i] }
func (h workHeap) Push(any)      { panic("psolver: use push") }
func (h workHeap) Pop() any      { panic("psolver: use pop") }

// seed adds locations to a node.
func (s *psolver) seed(n int32, set ptset) {
	n = s.find(n)
	if orInto(&s.a.pts[n], set) {
		s.push(n)
	}
}

// copyEdge adds n → m (transform kind, k) and propagates pts(n) now.
func (s *psolver) copyEdge(n, m int32, kind uint8, k int64) {
	if n < 0 || m < 0 {
		return
	}
	n, m = s.find(n), s.find(m)
	if n == m && kind == tID {
		return
	}
	s.nedges++
	es := s.copies[n]
	if l := len(es); l > 0 && es[l-1].dst == m && es[l-1].kind == kind && es[l-1].k == k {
		return
	}
	e := pedge{dst: m, kind: kind, k: k}
	s.copies[n] = append(es, e)
	if len(s.a.pts[n]) > 0 {
		s.apply(e, s.a.pts[n])
	}
}

// apply sends set through edge e.
func (s *psolver) apply(e pedge, set ptset) {
	a := s.a
	e.dst = s.find(e.dst)
	if e.kind == tID {
		if orInto(&a.pts[e.dst], set) {
			s.push(e.dst)
		}
		return
	}
	var out ptset
	for li := range allIdx(set) {
		l := a.locs[li]
		switch {
		case e.kind == tAny:
			out = a.withAny(out, li)
		case l.offset() == anyOff:
			out = a.with(out, l)
		case e.kind == tConst:
			for _, n := range a.normM(a.b.prog.Objects[l.objID()], l.offset()+e.k) {
				out = a.with(out, mkloc(l.objID(), n))
			}
		case e.kind == tStride && a.b.strideStays(a.b.prog.Objects[l.objID()], l.offset(), e.k):
			out = a.with(out, l)
		default:
			out = a.withAny(out, li)
		}
	}
	if orInto(&a.pts[e.dst], out) {
		s.push(e.dst)
	}
}

// deref registers a dereference consumer on address node addr.
func (s *psolver) deref(addr int32, d pderef) {
	if addr < 0 {
		// No location ever: the access touches <unknown> (resolved
		// after the worklist drains, like any empty address).
		addr = s.newNode()
	}
	addr = s.find(addr)
	i := int32(len(s.all))
	s.all = append(s.all, d)
	s.addrOf = append(s.addrOf, addr)
	s.derefs[addr] = append(s.derefs[addr], i)
	for li := range allIdx(s.a.pts[addr]) {
		s.fire(i, s.a.locs[li])
	}
}

// fire connects consumer i to the cells location l denotes.
func (s *psolver) fire(i int32, l ploc) {
	a := s.a
	d := s.all[i]
	o := a.b.prog.Objects[l.objID()]
	switch d.kind {
	case dLoad:
		for _, c := range a.cellsAtM(o, l.offset(), d.t) {
			s.all[i].hit = true
			s.copyEdge(int32(c.ID), d.node, tID, 0)
		}
	case dStore:
		for _, c := range a.cellsAtM(o, l.offset(), d.t) {
			s.all[i].hit = true
			s.copyEdge(d.node, int32(c.ID), tID, 0)
		}
	case dCopyIn:
		for _, c := range o.Cells {
			s.copyEdge(int32(c.ID), d.node, tID, 0)
		}
	case dCopyOut:
		for _, c := range o.Cells {
			s.copyEdge(d.node, int32(c.ID), tID, 0)
		}
	case dReach:
		key := [2]int32{d.node, l.objID()}
		if s.objs[key] {
			return
		}
		s.objs[key] = true
		if o.Kind == StringObject || o.Kind == FuncObject {
			return
		}
		unk := a.one(a.unknown)
		for _, c := range o.Cells {
			s.copyEdge(int32(c.ID), d.node, tAny, 0)
			if c.Type.Kind == PtrType || c.Type.Bits >= a.b.model.PtrBits() {
				s.seed(int32(c.ID), unk)
			}
		}
	}
}

// expr compiles e to the node holding its value's locations (-1: none).
func (s *psolver) expr(e Expr) int32 {
	a := s.a
	switch x := e.(type) {
	case *VarRef:
		return int32(x.Var.ID)
	case *Deref:
		n := s.newNode()
		s.deref(s.expr(x.Addr), pderef{node: n, kind: dLoad, t: &x.Type})
		return n
	case *AddrOf:
		n := s.newNode()
		var set ptset
		for _, off := range a.normM(x.Object, x.Offset) {
			set = a.with(set, mkloc(int32(x.Object.ID), off))
		}
		s.seed(n, set)
		return n
	case *Cast:
		return s.expr(x.X)
	case *Unary:
		if x.Op == Not {
			s.expr(x.X)
			return -1
		}
		return s.anyOf(s.expr(x.X))
	case *Binary:
		switch x.Op {
		case PtrAdd:
			base, off := s.expr(x.X), s.expr(x.Y)
			n := s.newNode()
			switch k, ok := x.Y.(*Const); {
			case ok:
				s.copyEdge(base, n, tConst, k.Value)
			case strideOf(x.Y) != 0:
				s.copyEdge(base, n, tStride, strideOf(x.Y))
			default:
				s.copyEdge(base, n, tAny, 0)
			}
			s.copyEdge(off, n, tAny, 0)
			return n
		case Add, Sub, And, Or, Xor:
			l, r := s.expr(x.X), s.expr(x.Y)
			if l < 0 && r < 0 {
				return -1
			}
			n := s.newNode()
			s.copyEdge(l, n, tAny, 0)
			s.copyEdge(r, n, tAny, 0)
			return n
		default:
			s.expr(x.X)
			s.expr(x.Y)
			return -1
		}
	}
	return -1
}

func (s *psolver) anyOf(n int32) int32 {
	if n < 0 {
		return -1
	}
	m := s.newNode()
	s.copyEdge(n, m, tAny, 0)
	return m
}

// assign compiles dst ⊇ the value of node v.
func (s *psolver) assign(dst LValue, v int32) {
	switch d := dst.(type) {
	case *VarRef:
		s.copyEdge(v, int32(d.Var.ID), tID, 0)
	case *Deref:
		addr := s.expr(d.Addr)
		if v < 0 {
			return
		}
		s.deref(addr, pderef{node: v, kind: dStore, t: &d.Type})
	}
}

// run propagates until the worklist is empty.
func (s *psolver) run() {
	a := s.a
	for len(s.work) > 0 {
		n := s.pop()
		s.inWork[n] = false
		if s.find(n) != n {
			continue // merged: its representative was queued
		}
		if s.nedges >= s.nextCollapse {
			s.collapse()
		}
		cur := a.pts[n]
		old := s.done[n]
		var delta ptset
		for i, w := range cur {
			if i < len(old) {
				w &^= old[i]
			}
			if w != 0 {
				for len(delta) <= i {
					delta = append(delta, 0)
				}
				delta[i] = w
			}
		}
		if len(delta) == 0 {
			continue
		}
		s.done[n] = append(s.done[n][:0], cur...)
		for _, e := range s.copies[n] {
			s.apply(e, delta)
		}
		if ds := s.derefs[n]; len(ds) > 0 {
			for wi, w := range delta {
				for w != 0 {
					b := bits.TrailingZeros64(w)
					w &^= 1 << b
					l := a.locs[wi*64+b]
					for _, i := range ds {
						s.fire(i, l)
					}
				}
			}
		}
	}
}

// solve runs the solver over the builder's program and extra rules.
func (a *pta) solveGraph(build func(s *psolver)) {
	s := &psolver{a: a, objs: map[[2]int32]bool{}}
	n := len(a.b.prog.Vars) + 1
	a.pts = make([]ptset, n)
	s.copies = make([][]pedge, n)
	s.derefs = make([][]int32, n)
	s.done = make([]ptset, n)
	s.inWork = make([]bool, n)
	s.rank = make([]int32, n)
	s.rep = make([]int32, n)
	for i := range s.rep {
		s.rep[i] = int32(i)
	}
	s.nextCollapse = 1 << 62
	build(s)
	s.collapse()
	for {
		s.run()
		// Accesses whose address holds no location touch <unknown>.
		more := false
		for i := range s.all {
			d := &s.all[i]
			if d.unk || d.hit || d.kind != dLoad && d.kind != dStore {
				continue // (memcpy through a null pointer copies nothing)
			}
			d.unk = true
			s.fire(int32(i), a.unknown)
			more = true
		}
		if !more && len(s.work) == 0 {
			break
		}
	}
	for i := 0; i < n; i++ {
		a.pts[i] = a.pts[s.find(int32(i))]
	}
	a.pts = a.pts[:n]
}

// collapse merges every strongly connected component of identity copy
// edges into one node (all its nodes have the same set at the fixpoint):
// Tarjan's algorithm over the representatives, then the members' sets,
// edges and dereference consumers move to the component's first node,
// which is queued with what some member had not propagated yet.
func (s *psolver) collapse() {
	a := s.a
	n := len(s.copies)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	var stack []int32
	next := int32(1)
	type frame struct {
		v int32
		i int
	}
	merged := false
	rank := int32(n) + 1 // components are found sinks first
	for root := int32(0); root < int32(n); root++ {
		if s.rep[root] != root || index[root] != 0 {
			continue
		}
		work := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(work) > 0 {
			f := &work[len(work)-1]
			if f.i < len(s.copies[f.v]) {
				e := s.copies[f.v][f.i]
				f.i++
				if e.kind != tID {
					continue
				}
				w := s.find(e.dst)
				if index[w] == 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					work = append(work, frame{w, 0})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			work = work[:len(work)-1]
			if len(work) > 0 {
				if p := work[len(work)-1].v; low[v] < low[p] {
					low[p] = low[v]
				}
			}
			if low[v] != index[v] {
				continue
			}
			// v roots a component: pop it.
			k := len(stack) - 1
			for stack[k] != v {
				k--
			}
			comp := stack[k:]
			stack = stack[:k]
			rank--
			for _, x := range comp {
				onStack[x] = false
				s.rank[x] = rank
			}
			if len(comp) == 1 {
				continue
			}
			merged = true
			r := comp[0]
			for _, x := range comp {
				if x < r {
					r = x
				}
			}
			done := s.done[r]
			for _, x := range comp {
				if x == r {
					continue
				}
				s.rep[x] = r
				orInto(&a.pts[r], a.pts[x])
				// what every member propagated: the intersection
				d := s.done[x]
				if len(d) < len(done) {
					done = done[:len(d)]
				}
				for i := range done {
					done[i] &= d[i]
				}
				s.copies[r] = append(s.copies[r], s.copies[x]...)
				s.derefs[r] = append(s.derefs[r], s.derefs[x]...)
				a.pts[x], s.copies[x], s.derefs[x], s.done[x] = nil, nil, nil, nil
			}
			s.done[r] = done
			s.push(r)
		}
	}
	// Edges: through the representatives, without self loops and
	// duplicates.
	total := 0
	for v := range s.copies {
		es := s.copies[v]
		if len(es) == 0 {
			continue
		}
		if merged {
			out := es[:0]
			for _, e := range es {
				e.dst = s.find(e.dst)
				if e.dst == int32(v) && e.kind == tID {
					continue
				}
				out = append(out, e)
			}
			sort.Slice(out, func(i, j int) bool {
				x, y := out[i], out[j]
				if x.dst != y.dst {
					return x.dst < y.dst
				}
				if x.kind != y.kind {
					return x.kind < y.kind
				}
				return x.k < y.k
			})
			es = out[:0]
			for i, e := range out {
				if i == 0 || e != out[i-1] {
					es = append(es, e)
				}
			}
			s.copies[v] = es
		}
		total += len(es)
	}
	s.reheap()
	s.nedges = 0
	s.nextCollapse = max(total/2, 20000)
}
