package dfg

import (
	"math"
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

type wtoBuilder struct {
	succs [][]int32
	dfn   []int
	stack []int32
	num   int
}

// weakTopoOrder returns the locations (by ID) in WTO order and which are
// heads. roots gives the preferred visiting order.
func weakTopoOrder(succs [][]int32, roots []int32) (order []int32, isHead []bool) {
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
