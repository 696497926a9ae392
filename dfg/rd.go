package dfg

import (
	"math/bits"
	"slices"

	"chorus/cfg"
)

// rdSolver computes reaching definitions of one cell at a time over the
// locations of one thread template (a cell of locals) or of all templates
// linked by spawn edges (a global cell), and turns them into DFG edges.
//
// Definitions of cell X: the ⊥ source (index 0) and the locations whose
// action writes X along the CFG; a strong write kills, a weak one does not.
// Template entries: main's entry gets ⊥ for every cell (its InitGlobals
// action then defines the globals); another template's entry gets, for a
// global cell, the definitions reaching the exits of its spawn sites, for
// the cell of its parameter the spawn sites themselves (they write the
// child's parameter), and ⊥ for its other locals (uninitialized).
type rdSolver struct {
	g      *Graph
	idx    []int32 // Loc.ID -> node index for the current cell, -1 outside
	bits   []uint64
	nodes  []*cfg.Loc
	defIdx map[int32]int // Loc.ID -> def index
	words  int
}

func newRDSolver(g *Graph) *rdSolver {
	r := &rdSolver{g: g, idx: make([]int32, len(g.prog.Locs))}
	for i := range r.idx {
		r.idx[i] = -1
	}
	return r
}

func has(set []CellID, c CellID) bool {
	_, ok := slices.BinarySearch(set, c)
	return ok
}

func (r *rdSolver) solve(x CellID, usedAt []*cfg.Loc) {
	g := r.g
	cell := g.part.Cell(x)
	var owner *cfg.Template
	if !cell.Global {
		owner = cell.Vars[0].Template
	}
	// Nodes in reverse postorder.
	r.nodes = r.nodes[:0]
	for _, l := range g.rpo {
		if owner == nil || l.Template == owner {
			r.idx[l.ID] = int32(len(r.nodes))
			r.nodes = append(r.nodes, l)
		}
	}
	defer func() {
		for _, l := range r.nodes {
			r.idx[l.ID] = -1
		}
	}()
	// Definitions.
	r.defIdx = map[int32]int{}
	defs := []*cfg.Loc{nil}
	for _, l := range r.nodes {
		if has(g.gen[l.ID], x) {
			r.defIdx[int32(l.ID)] = len(defs)
			defs = append(defs, l)
		}
	}
	var paramSpawns []*cfg.Loc // spawn sites writing the owner's parameter cell
	if owner != nil && owner.Param != nil && g.part.CellOf(owner.Param) == x {
		// A spawn site may also be a def along the CFG (a template
		// spawning itself); its parameter write gets its own index.
		paramSpawns = append(paramSpawns, g.spawns[owner]...)
	}
	paramDef := make([]int, len(paramSpawns))
	for i := range paramSpawns {
		paramDef[i] = len(defs)
		defs = append(defs, paramSpawns[i])
	}
	w := (len(defs) + 63) / 64
	r.words = w
	need := len(r.nodes) * w
	if cap(r.bits) < need {
		r.bits = make([]uint64, need)
	} else {
		r.bits = r.bits[:need]
		clear(r.bits)
	}
	tmp := make([]uint64, w)
	mainT := g.prog.Templates[0]

	// out(p) into dst (OR).
	orOut := func(dst []uint64, p *cfg.Loc) {
		pi := r.idx[p.ID]
		if pi < 0 {
			return
		}
		if !has(g.kill[p.ID], x) {
			in := r.bits[int(pi)*w : int(pi)*w+w]
			for i := range dst {
				dst[i] |= in[i]
			}
		}
		if d, ok := r.defIdx[int32(p.ID)]; ok {
			dst[d/64] |= 1 << (d % 64)
		}
	}
	for changed := true; changed; {
		changed = false
		for ni, v := range r.nodes {
			clear(tmp)
			if v.Template.Entry == v {
				t := v.Template
				switch {
				case t == mainT:
					tmp[0] |= 1
				case owner == nil:
					for _, s := range g.spawns[t] {
						orOut(tmp, s)
					}
				case len(paramSpawns) > 0:
					for _, d := range paramDef {
						tmp[d/64] |= 1 << (d % 64)
					}
				default:
					tmp[0] |= 1
				}
			}
			for _, p := range g.preds[v.ID] {
				orOut(tmp, p)
			}
			cur := r.bits[ni*w : ni*w+w]
			for i := range cur {
				if tmp[i]|cur[i] != cur[i] {
					cur[i] |= tmp[i]
					changed = true
				}
			}
		}
	}
	for _, v := range usedAt {
		ni := r.idx[v.ID]
		if ni < 0 {
			continue // a local cell used outside its template cannot happen
		}
		in := r.bits[int(ni)*w : int(ni)*w+w]
		for wi, word := range in {
			for word != 0 {
				b := bits.TrailingZeros64(word)
				word &^= 1 << b
				g.addEdge(Edge{Src: defs[wi*64+b], Cell: x, Dst: v})
			}
		}
	}
}
