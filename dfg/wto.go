package dfg

import (
	"fmt"
	"math"
	"os"
	"slices"
)

// A weak topological order (Bourdoncle, "Efficient chaotic iteration
// strategies with widenings", 1993) of the DFG's location graph: every
// cycle contains a component head, so widening at the heads makes the
// iteration terminate; the flattened order (heads before their
// components) is the worklist priority.

type wtoElem struct {
	node int32
	head bool
	body []wtoElem
}

// weakTopoOrder returns the locations (by ID) in WTO order and which are
// heads. roots gives the preferred visiting order.
//
// The result is exactly Bourdoncle's recursive construction
// (recursiveWTO, kept as the specification; CHORUS_CHECK_WTO, on in the
// dfg tests, compares the two), computed in almost linear time, where the
// recursive construction revisits a component's nodes once for every
// component around them (a thousand times per node on pcwd_pci's graphs).
// It rests on three facts about the recursive construction:
//
//   - Its visits, the re-visits of component bodies included, are one
//     depth-first search T (roots in order, successors in order)
//     restricted to the nodes concerned: a component's members are in its
//     head's subtree and what its members reach outside it never leads
//     back in, so the re-visit from the head's successors meets the
//     members in T's order.
//   - The components of a level are Tarjan's strongly connected
//     components (with a cycle) of that level's nodes, the head being the
//     member T visits first; a component's body is the next level, its
//     members without the head. That is Havlak's loop nesting forest of
//     T, which the loop below builds bottom-up (decreasing preorder) with
//     union-find; following Kim, Venet and Thakur (POPL 2020), an edge
//     that is neither a tree nor a back edge is considered at the least
//     common ancestor of its ends, the first level that contains both.
//   - A level's elements come in the reverse order of their completion,
//     i.e. by decreasing postorder number (in T) of their first node.
//
// Widening needs only that every cycle contain a head and that each
// component follow its head contiguously in the order; both hold by
// construction (a cycle lies in one component at the top level, and
// either passes through its head or lies in the body, a level down).
func weakTopoOrder(succs [][]int32, roots []int32) (order []int32, isHead []bool) {
	n := len(succs)
	const none = -1
	// Depth-first search: nodes in preorder and postorder, tree parents;
	// back edges by target; every other edge at the least common
	// ancestor of its ends (Tarjan's offline LCA: a finished node links
	// to its tree parent, so the representative of a finished node is
	// its deepest ancestor still on the search stack).
	seen := make([]bool, n)
	byPre := make([]int32, 0, n) // nodes in preorder
	byPost := make([]int32, 0, n)
	treeParent := make([]int32, n)
	lcaLink := make([]int32, n) // self while on the stack; none: a finished root
	onStack := make([]bool, n)
	backPreds := make([][]int32, n)
	type crossEdge struct{ src, dst int32 }
	atLCA := make([][]crossEdge, n)
	lcaFind := func(x int32) int32 {
		r := x
		for r != none && lcaLink[r] != r {
			r = lcaLink[r]
		}
		for x != r && x != none { // path compression
			next := lcaLink[x]
			lcaLink[x] = r
			x = next
		}
		return r
	}
	type dfsFrame struct {
		v    int32
		next int32
	}
	var stack []dfsFrame
	discover := func(x, parent int32) {
		seen[x] = true
		byPre = append(byPre, x)
		treeParent[x] = parent
		lcaLink[x] = x
		onStack[x] = true
		stack = append(stack, dfsFrame{v: x})
	}
	for _, r := range roots {
		if seen[r] {
			continue
		}
		discover(r, none)
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			y := f.v
			if int(f.next) < len(succs[y]) {
				x := succs[y][f.next]
				f.next++
				switch {
				case !seen[x]: // tree edge
					atLCA[y] = append(atLCA[y], crossEdge{y, x})
					discover(x, y)
				case onStack[x]: // back edge (x is y or an ancestor of y)
					backPreds[x] = append(backPreds[x], y)
				default: // forward or cross edge
					if l := lcaFind(x); l != none {
						atLCA[l] = append(atLCA[l], crossEdge{y, x})
					} // else x is in an earlier search tree: on no cycle
				}
				continue
			}
			byPost = append(byPost, y)
			onStack[y] = false
			lcaLink[y] = treeParent[y]
			stack = stack[:len(stack)-1]
		}
	}

	// Loop nesting forest, innermost loops first.
	rep := make([]int32, n) // union-find: a processed component's head
	for i := range rep {
		rep[i] = int32(i)
	}
	find := func(x int32) int32 {
		r := x
		for rep[r] != r {
			r = rep[r]
		}
		for rep[x] != r {
			next := rep[x]
			rep[x] = r
			x = next
		}
		return r
	}
	preds := make([][]int32, n) // non-back predecessors of representatives
	loopParent := make([]int32, n)
	for i := range loopParent {
		loopParent[i] = none
	}
	isHead = make([]bool, n)
	inBody := make([]int32, n) // stamp: 1 + the head whose body holds the node
	var body, work []int32
	for i := len(byPre) - 1; i >= 0; i-- {
		w := byPre[i]
		for _, e := range atLCA[w] {
			d := find(e.dst)
			preds[d] = append(preds[d], e.src)
		}
		body = body[:0]
		add := func(x int32) {
			if x != w && inBody[x] != w+1 {
				inBody[x] = w + 1
				body = append(body, x)
			}
		}
		for _, y := range backPreds[w] {
			if y == w {
				isHead[w] = true // a self-loop
			}
			add(find(y))
		}
		work = append(work[:0], body...)
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, y := range preds[x] {
				// y is in w's subtree (the edge was registered at w or
				// below), so r, the outermost processed head around
				// y, is a descendant of w or w itself.
				r := find(y)
				if r != w && inBody[r] != w+1 {
					add(r)
					work = append(work, r)
				}
			}
		}
		if len(body) > 0 {
			isHead[w] = true
		}
		for _, x := range body {
			loopParent[x] = w
			rep[x] = w
		}
	}

	// Each level's elements by decreasing postorder, heads before bodies.
	children := make([][]int32, n)
	var top []int32
	for i := len(byPost) - 1; i >= 0; i-- {
		x := byPost[i]
		if p := loopParent[x]; p != none {
			children[p] = append(children[p], x)
		} else {
			top = append(top, x)
		}
	}
	order = make([]int32, 0, len(byPre))
	type cursor struct {
		es []int32
		i  int
	}
	cursors := []cursor{{es: top}}
	for len(cursors) > 0 {
		c := &cursors[len(cursors)-1]
		if c.i == len(c.es) {
			cursors = cursors[:len(cursors)-1]
			continue
		}
		x := c.es[c.i]
		c.i++
		order = append(order, x)
		if len(children[x]) > 0 {
			cursors = append(cursors, cursor{es: children[x]})
		}
	}
	return order, isHead
}

// checkWTO (CHORUS_CHECK_WTO=1, and this package's tests) compares every
// weakTopoOrder with recursiveWTO and panics on a difference.
var checkWTO = os.Getenv("CHORUS_CHECK_WTO") != ""

// weakTopoOrderChecked is weakTopoOrder, compared with the recursive
// specification when checkWTO is set.
func weakTopoOrderChecked(succs [][]int32, roots []int32) (order []int32, isHead []bool) {
	order, isHead = weakTopoOrder(succs, roots)
	if checkWTO {
		wantOrder, wantHead := recursiveWTO(succs, roots)
		if !slices.Equal(order, wantOrder) || !slices.Equal(isHead, wantHead) {
			panic(fmt.Sprintf("dfg: weakTopoOrder differs from Bourdoncle's recursive construction on %d nodes", len(succs)))
		}
	}
	return order, isHead
}

// recursiveWTO is Bourdoncle's recursive construction as published: the
// specification weakTopoOrder follows, for checkWTO and the tests.
func recursiveWTO(succs [][]int32, roots []int32) (order []int32, isHead []bool) {
	w := &wtoBuilder{succs: succs, dfn: make([]int, len(succs))}
	var top []wtoElem
	for _, r := range roots {
		if w.dfn[r] == 0 {
			w.visit(r, &top)
		}
	}
	slices.Reverse(top)
	isHead = make([]bool, len(succs))
	var flatten func(es []wtoElem)
	flatten = func(es []wtoElem) {
		for _, e := range es {
			order = append(order, e.node)
			if e.head {
				isHead[e.node] = true
				flatten(e.body)
			}
		}
	}
	flatten(top)
	return order, isHead
}

type wtoBuilder struct {
	succs [][]int32
	dfn   []int
	stack []int32
	num   int
}

func (w *wtoBuilder) visit(v int32, part *[]wtoElem) int {
	w.stack = append(w.stack, v)
	w.num++
	w.dfn[v] = w.num
	head := w.num
	loop := false
	for _, s := range w.succs[v] {
		var m int
		if w.dfn[s] == 0 {
			m = w.visit(s, part)
		} else {
			m = w.dfn[s]
		}
		if m <= head {
			head = m
			loop = true
		}
	}
	if head == w.dfn[v] {
		w.dfn[v] = math.MaxInt
		e := w.pop()
		if loop {
			for e != v {
				w.dfn[e] = 0
				e = w.pop()
			}
			*part = append(*part, w.component(v))
		} else {
			*part = append(*part, wtoElem{node: v})
		}
	}
	return head
}

func (w *wtoBuilder) pop() int32 {
	e := w.stack[len(w.stack)-1]
	w.stack = w.stack[:len(w.stack)-1]
	return e
}

func (w *wtoBuilder) component(v int32) wtoElem {
	var part []wtoElem
	for _, s := range w.succs[v] {
		if w.dfn[s] == 0 {
			w.visit(s, &part)
		}
	}
	slices.Reverse(part)
	return wtoElem{node: v, head: true, body: part}
}

// defaultWTOMaxEdges: above this many edges the solver orders the graph
// with dfsOrder instead of Bourdoncle's recursive construction, which
// revisits nested components and grows quadratically on the giant
// strongly connected components that interference makes in large
// programs (WithOrderThreshold).
const defaultWTOMaxEdges = 400_000

// dfsOrder is a linear-time substitute for weakTopoOrder: the reverse
// postorder of an iterative depth-first search from roots, with the
// targets of back edges (edges to a node on the search stack) as heads.
// Every cycle contains a back edge, whose target is the cycle's node that
// the search reached first, hence the one earliest in the order: the edge
// closing the cycle comes from a later node, as with a weak topological
// order, so widening at heads on the cells of such edges still makes the
// iteration terminate.
func dfsOrder(succs [][]int32, roots []int32) (order []int32, isHead []bool) {
	n := len(succs)
	const (
		white = iota
		onStack
		done
	)
	color := make([]uint8, n)
	isHead = make([]bool, n)
	post := make([]int32, 0, n)
	type frame struct {
		v int32
		i int
	}
	var stack []frame
	for _, r := range roots {
		if color[r] != white {
			continue
		}
		color[r] = onStack
		stack = append(stack, frame{r, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.i < len(succs[top.v]) {
				s := succs[top.v][top.i]
				top.i++
				switch color[s] {
				case white:
					color[s] = onStack
					stack = append(stack, frame{s, 0})
				case onStack:
					isHead[s] = true
				}
				continue
			}
			color[top.v] = done
			post = append(post, top.v)
			stack = stack[:len(stack)-1]
		}
	}
	slices.Reverse(post)
	return post, isHead
}
