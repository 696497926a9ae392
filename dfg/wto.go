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
