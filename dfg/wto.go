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

// wtoFrame is one activation of Bourdoncle's recursive procedures on
// weakTopoOrder's explicit stack: visit(v) (comp false) or component(v)
// (comp true).
type wtoFrame struct {
	v     int32
	next  int32 // index of the next successor of v to look at
	comp  bool
	loop  bool  // visit: some successor reached back to head or above
	head  int   // visit: least dfn reached; component: what its visit returns
	part  int32 // visit: the part its elements go to; component: its own part
	outer int32 // component: the part the finished component goes to
}

// weakTopoOrder returns the locations (by ID) in WTO order and which are
// heads. roots gives the preferred visiting order.
//
// It is Bourdoncle's recursive construction (recursiveWTO, kept as the
// specification) run on an explicit stack: the same successors are looked
// at in the same order with the same numbering, so the order and heads
// are identical (CHORUS_CHECK_WTO, on in the dfg tests, compares the two);
// the recursion, as deep as the longest path, grew and copied the
// goroutine stack on the large graphs of drivers.
func weakTopoOrder(succs [][]int32, roots []int32) (order []int32, isHead []bool) {
	n := len(succs)
	// dfn is an int, as num counts every visit, and Bourdoncle's
	// construction visits a node once per component around it.
	dfn := make([]int, n) // 0: unvisited; math.MaxInt: placed
	var stack []int32     // Bourdoncle's node stack
	num := 0
	parts := [][]wtoElem{nil} // part 0: the top level; one more per open component
	var frames []wtoFrame
	enter := func(v, part int32) {
		stack = append(stack, v)
		num++
		dfn[v] = num
		frames = append(frames, wtoFrame{v: v, head: num, part: part})
	}
	pop := func() int32 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		return e
	}
	for _, r := range roots {
		if dfn[r] != 0 {
			continue
		}
		enter(r, 0)
		for len(frames) > 0 {
			f := &frames[len(frames)-1]
			if int(f.next) < len(succs[f.v]) {
				s := succs[f.v][f.next]
				f.next++
				if dfn[s] == 0 {
					enter(s, f.part) // a component's visits fill its own part
					continue
				}
				if !f.comp && dfn[s] <= f.head {
					f.head = dfn[s]
					f.loop = true
				}
				continue
			}
			// The frame's procedure returns.
			var ret int
			if f.comp {
				body := parts[f.part]
				parts = parts[:f.part]
				slices.Reverse(body)
				parts[f.outer] = append(parts[f.outer], wtoElem{node: f.v, head: true, body: body})
				ret = f.head
			} else {
				v := f.v
				ret = f.head
				if f.head == dfn[v] {
					dfn[v] = math.MaxInt
					e := pop()
					if f.loop {
						for e != v {
							dfn[e] = 0
							e = pop()
						}
						// visit(v) continues as component(v), then returns ret.
						*f = wtoFrame{v: v, comp: true, head: ret, part: int32(len(parts)), outer: f.part}
						parts = append(parts, nil)
						continue
					}
					parts[f.part] = append(parts[f.part], wtoElem{node: v})
				}
			}
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				if p := &frames[len(frames)-1]; !p.comp && ret <= p.head {
					p.head = ret
					p.loop = true
				}
			}
		}
	}
	return flattenWTO(parts[0], n)
}

// flattenWTO lists the nodes of the top-level part, reversed, each head
// followed by its body (already in order), without recursion.
func flattenWTO(top []wtoElem, n int) (order []int32, isHead []bool) {
	slices.Reverse(top)
	order = make([]int32, 0, n)
	isHead = make([]bool, n)
	type cursor struct {
		es []wtoElem
		i  int
	}
	work := []cursor{{es: top}}
	for len(work) > 0 {
		c := &work[len(work)-1]
		if c.i == len(c.es) {
			work = work[:len(work)-1]
			continue
		}
		e := c.es[c.i]
		c.i++
		order = append(order, e.node)
		if e.head {
			isHead[e.node] = true
			work = append(work, cursor{es: e.body})
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
			panic(fmt.Sprintf("dfg: iterative WTO differs from Bourdoncle's recursive one on %d nodes", len(succs)))
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
	return flattenWTO(top, len(succs))
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
