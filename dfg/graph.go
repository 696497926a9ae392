package dfg

import (
	"context"
	"slices"

	"chorus/cfg"
)

// Edge is a DFG edge Src —Cell→ Dst: the value of Cell produced by executing
// act(Src) may be its value when a thread stands at Dst. Src == nil is the
// ⊥ source ("any value of the variables' types"; for the control cell:
// program start at main's entry).
type Edge struct {
	Src          *cfg.Loc
	Dst          *cfg.Loc
	Cell         CellID
	Interference bool // added by AddEdge (cross-thread), not sequential
	// AlsoInterference: a sequential edge into a mixed cell that AddEdge
	// also reported as an interference edge (another instance of the same
	// template writing at Src); the solver counts it both ways (mixed.go).
	AlsoInterference bool
}

// edge is an Edge as the graph stores it, in the list of its target
// (Graph.edges), which names Dst: 16 bytes instead of Edge's 24 (pigz
// linked and the large drivers have millions of edges, each stored
// once here).
type edge struct {
	Src                            *cfg.Loc
	Cell                           CellID
	Interference, AlsoInterference bool // as Edge's
}

// withDst is e as an Edge into dst.
func (e edge) withDst(dst *cfg.Loc) Edge {
	return Edge{Src: e.Src, Dst: dst, Cell: e.Cell, Interference: e.Interference, AlsoInterference: e.AlsoInterference}
}

type edgeKey struct {
	src  int32 // -1: ⊥
	cell CellID
	dst  int32
}

// Graph is the data flow graph of a program over a Partition.
type Graph struct {
	prog *cfg.Program
	part *Partition

	acc  []access   // by Loc.ID
	mod  [][]CellID // by Loc.ID, sorted
	gen  [][]CellID // by Loc.ID: cells written along the CFG (mod minus spawn-parameter writes), sorted; each such write kills (see rdSolver)
	uses [][]CellID // by Loc.ID, sorted
	in   [][]CellID // by Loc.ID: cells tracked at the location (no ControlCell), sorted

	need   []CellID // sorted
	needAt func(*cfg.Loc) bool
	spawns map[*cfg.Template][]*cfg.Loc
	// fp prunes flag-infeasible sequential edges (flagpath.go) while
	// fpOn (reaching definitions in build).
	fp   *flagPaths
	fpOn bool
	// pub drops stale sequential edges from InitGlobals (publish.go)
	// while fpOn; pubUnsound: UnsoundPublish.
	pub        *pubRule
	pubUnsound bool
	pubNo      bool               // WithoutPublish
	preds      [][]*cfg.Loc       // CFG predecessors by Loc.ID (computed from Succs)
	bodyMod    [][]CellID         // by Body.ID: the cells of Body.Mod, sorted
	retOf      map[int32]*cfg.Loc // call site Loc.ID -> the landing location of its return
	freshAt    map[int32][]CellID // body entry Loc.ID -> cells of its Fresh registers, sorted
	rpo        []*cfg.Loc
	rpoIdx     []int32
	edges      [][]edge // by Dst.ID, sequential first then interference in insertion order
	succs      [][]int32
	edgeSet    map[edgeKey]struct{}
	// seqIdx (edgeidx.go): by Dst.ID, the sorted keys of the edges built
	// by build; edgeSet holds the edges added after it. bulk: build is
	// adding edges (succs are sorted at its end, not per edge).
	seqIdx  [][]uint64
	bulk    bool
	nEdges  int
	nInterf int

	// structVersion changes when the sequential edges are rebuilt (Need);
	// pending lists the targets of interference edges added since the
	// solver last looked.
	structVersion int
	pending       []*cfg.Loc
	stale         bool // In and the edges are not built yet (ensure)

	// Interference hubs (hub.go): synthetic locations numbered after the
	// program's; the per-node tables above have entries for them.
	hubs    []*cfg.Loc
	hubSrcs [][]*cfg.Loc
	hubCell []CellID
	hubsOf  [][]int32 // by source Loc.ID: the hubs it feeds
	hubSlot [][]int32 // by source Loc.ID, parallel to hubsOf: its index in the hub's sources
	// grownHubs: the hubs ExtendHub gave new sources since the solver
	// last looked (it drops their cached joins).
	grownHubs []*cfg.Loc
	// reflagged: the targets of edges markAlsoInterference flagged since
	// the solver last looked (an existing edge changed meaning: the
	// solver evaluates them afresh; new edges it finds by itself).
	reflagged []*cfg.Loc

	relays []RelaySpec // relay.go
	// readerRelay: by Loc.ID, the mixed cells of lock relays that take
	// the reader relay's equation (readrelay.go).
	readerRelay         map[int][]CellID
	unsoundReaderRelays bool // UnsoundReaderRelays (test only)
	// dropSeq: the sequential edges to leave out (handoff.go; nil: none).
	dropSeq func(src, dst *cfg.Loc, c CellID) bool
	// Stable globals (stable.go): cache, its version, the globals each
	// template writes; noStable turns them off.
	stableCache map[int64][]int
	stableVer   int
	writtenBy   map[*cfg.Template]map[*cfg.Var]bool
	noStable    bool
	// unsoundStable: UnsoundStableGlobals (test only).
	unsoundStable bool
}

// New builds the sequential DFG of p over part: control edges along the CFG
// (and from spawn sites to the spawned templates' entries) and, for every
// location v and cell X tracked at v, an edge from each reaching definition
// of X (per thread template; DESIGN.md §3).
func New(p *cfg.Program, part *Partition) *Graph {
	g := &Graph{prog: p, part: part, spawns: map[*cfg.Template][]*cfg.Loc{}}
	n := len(p.Locs)
	g.acc = make([]access, n)
	g.mod = make([][]CellID, n)
	g.gen = make([][]CellID, n)
	g.uses = make([][]CellID, n)
	g.preds = make([][]*cfg.Loc, n)
	for _, l := range p.Locs {
		a := actionAccess(p, l)
		g.acc[l.ID] = a
		var mod, gen, uses []CellID
		for _, v := range a.reads {
			uses = append(uses, part.CellOf(v))
		}
		for _, w := range a.writes {
			c := part.CellOf(w.v)
			mod = append(mod, c)
			if !w.spawnParam {
				gen = append(gen, c)
			}
		}
		g.mod[l.ID] = sortedSet(mod)
		g.gen[l.ID] = sortedSet(gen)
		g.uses[l.ID] = sortedSet(uses)
		for _, s := range l.Succs {
			g.preds[s.ID] = append(g.preds[s.ID], l)
		}
		if sp, ok := l.Act.(*cfg.Spawn); ok {
			for _, t := range sp.Targets {
				g.spawns[t] = append(g.spawns[t], l)
			}
		}
	}
	g.bodyMod = make([][]CellID, len(p.Bodies))
	g.retOf = map[int32]*cfg.Loc{}
	g.freshAt = map[int32][]CellID{}
	for _, bd := range p.Bodies {
		fresh := map[*cfg.Var]bool{}
		for _, v := range bd.Fresh {
			fresh[v] = true
		}
		var fc []CellID
		for _, v := range bd.Fresh {
			c := part.CellOf(v)
			all := true
			for _, w := range part.Cell(c).Vars {
				all = all && fresh[w]
			}
			if all {
				fc = append(fc, c)
			}
		}
		if bd.Entry != nil && len(fc) > 0 {
			g.freshAt[int32(bd.Entry.ID)] = sortedSet(fc)
		}
		var cs []CellID
		for _, v := range bd.Mod {
			cs = append(cs, part.CellOf(v))
		}
		g.bodyMod[bd.ID] = sortedSet(cs)
		for i, c := range bd.Calls {
			if i < len(bd.Returns) {
				if r := bd.Returns[i]; len(r.Succs) == 1 {
					g.retOf[int32(c.ID)] = r.Succs[0] // the landing location
				}
			}
		}
	}
	g.computeRPO()
	g.stale = true // built on first use, so that a NeedAt before it costs nothing
	return g
}

// ensure builds In and the sequential edges if they are not built yet.
func (g *Graph) ensure() {
	if g.stale {
		g.stale = false
		g.build(context.Background())
	}
}

// Build builds In and the sequential edges now if they are not built yet,
// stopping with ctx's error when ctx is done (reaching definitions check
// it per cell and while iterating: on the largest drivers they ran for
// half an hour). After an error the graph is still unbuilt: the next use
// builds it from scratch, so no partial graph is ever solved.
func (g *Graph) Build(ctx context.Context) error {
	if !g.stale {
		return nil
	}
	g.stale = false // (build's own lookups must not build again)
	if err := g.build(ctx); err != nil {
		g.stale = true
		return err
	}
	return nil
}

func sortedSet(cs []CellID) []CellID {
	slices.Sort(cs)
	return slices.Compact(cs)
}

// Program returns the program of the graph.
func (g *Graph) Program() *cfg.Program { return g.prog }

// Partition returns the graph's partition.
func (g *Graph) Partition() *Partition { return g.part }

// Mod returns the cells act(loc) may modify, sorted. Assumes (and checks)
// count as writes of their variables, weak updates count, Havoc, Alloc,
// Acquire, Release and a Spawn's handle write, a Spawn writes the spawned
// templates' parameters, and InitGlobals writes every global.
func (g *Graph) Mod(loc *cfg.Loc) []CellID { return g.mod[loc.ID] }

// Uses returns the cells act(loc) reads, sorted (Deref cells and address
// variables, lock words, conditions; not ControlCell).
func (g *Graph) Uses(loc *cfg.Loc) []CellID { return g.uses[loc.ID] }

// In returns the cells tracked at loc (not ControlCell), sorted: the cells
// loc uses, the cells it modifies whose old value is an input of its action
// (weak writes, writes to part of a relational cell), and the needed cells
// of Need.
func (g *Graph) In(loc *cfg.Loc) []CellID { g.ensure(); return g.in[loc.ID] }

// Tracks reports whether cell c is tracked at loc (ControlCell always is).
func (g *Graph) Tracks(loc *cfg.Loc, c CellID) bool {
	g.ensure()
	if c == ControlCell {
		return true
	}
	_, ok := slices.BinarySearch(g.in[loc.ID], c)
	return ok
}

// Need declares cells whose value must be known at every location (a cell
// of locals: at every location of its template). It rebuilds the
// sequential edges; interference edges added before are kept where their
// cell is tracked at their target. Call it before the first Solve; a later
// call makes the next Solve start from scratch.
func (g *Graph) Need(cells ...CellID) { g.NeedAt(nil, cells...) }

// NeedAt is Need restricted to the locations where at(l) holds (nil: every
// location). Elsewhere the cells are tracked only where the action uses
// them. The interference engine evaluates its conditions at game
// positions only; tracking their cells at every other location would
// cost an edge from every writer to every location (millions on the
// large drivers) for values nobody reads. The restriction applies to all
// needed cells; a later call replaces it.
func (g *Graph) NeedAt(at func(*cfg.Loc) bool, cells ...CellID) {
	changed := at != nil || g.needAt != nil
	g.needAt = at
	for _, c := range cells {
		if c <= ControlCell || int(c) >= g.part.NumCells() {
			continue
		}
		if i, ok := slices.BinarySearch(g.need, c); !ok {
			g.need = slices.Insert(g.need, i, c)
			changed = true
		}
	}
	if changed && !g.stale {
		var interf, hubOut []edgeTo
		for d, es := range g.edges {
			dst := g.node(int32(d))
			for _, e := range es {
				switch {
				case e.AlsoInterference:
					interf = append(interf, edgeTo{e, dst})
				case !e.Interference, g.IsHub(dst):
				case g.IsHub(e.Src):
					hubOut = append(hubOut, edgeTo{e, dst})
				default:
					interf = append(interf, edgeTo{e, dst})
				}
			}
		}
		g.build(context.Background())
		g.rebuildHubs(hubOut)
		for _, e := range interf {
			g.AddEdge(e.Src, e.Cell, e.dst)
		}
		g.pending, g.grownHubs, g.reflagged = nil, nil, nil
	}
}

// Needed returns the cells declared by Need, sorted.
func (g *Graph) Needed() []CellID { return g.need }

// Edges returns the edges into dst, in the graph's order (a new slice).
func (g *Graph) Edges(dst *cfg.Loc) []Edge {
	g.ensure()
	es := g.edges[dst.ID]
	out := make([]Edge, len(es))
	for i, e := range es {
		out[i] = e.withDst(dst)
	}
	return out
}

// Sources returns the sources of the edges into dst for cell c (nil
// entries are the ⊥ source).
func (g *Graph) Sources(dst *cfg.Loc, c CellID) []*cfg.Loc {
	g.ensure()
	var out []*cfg.Loc
	for _, e := range g.edges[dst.ID] {
		if e.Cell == c {
			out = append(out, e.Src)
		}
	}
	return out
}

// NumEdges returns the number of edges (sequential, control and
// interference); NumInterferenceEdges the interference ones among them.
func (g *Graph) NumEdges() int             { g.ensure(); return g.nEdges }
func (g *Graph) NumInterferenceEdges() int { g.ensure(); return g.nInterf }

// AddEdge adds the interference edge src —cell→ dst. It returns false and
// records nothing when the edge exists already, when cell is ControlCell
// (control never flows between threads), or when cell is not tracked at
// dst (Graph.In): such an edge cannot change Φ(dst); the interference
// engine must add edges to the locations that use the cell (or Need it).
// An edge whose source does not modify cell is accepted; it carries the
// cell's value before act(src), which equals the value after it.
func (g *Graph) AddEdge(src *cfg.Loc, cell CellID, dst *cfg.Loc) (added bool) {
	g.ensure()
	if src == nil || dst == nil || cell == ControlCell || !g.Tracks(dst, cell) {
		return false
	}
	if !g.addEdge(dst, edge{Src: src, Cell: cell, Interference: true}) {
		if g.part.cells[cell].Mixed() {
			return g.markAlsoInterference(src, cell, dst)
		}
		return false
	}
	g.nInterf++
	g.pending = append(g.pending, dst)
	return true
}

// filteredOut reports whether a sequential edge is left out of the graph:
// flag-infeasible (flagpath.go), a stale initial value (publish.go), or
// dropped by the handoff and owned-globals rules (handoff.go). The one
// filter of addEdge and of build's bulk path (addSeqEdge).
func (g *Graph) filteredOut(dst *cfg.Loc, e edge) bool {
	return g.fpOn && (!g.fp.feasible(e.Src, e.Cell, dst) || g.pub.stale(dst, e)) || g.droppedSeq(dst, e)
}

// edgeTo is an edge with its target, for lists of edges of several
// targets.
type edgeTo struct {
	edge
	dst *cfg.Loc
}

// addEdge adds e into dst unless it is filtered out or there already.
func (g *Graph) addEdge(dst *cfg.Loc, e edge) bool {
	if g.filteredOut(dst, e) {
		return false
	}
	if g.IsHub(e.Src) || g.IsHub(dst) {
		// Edges of hubs are not in edgeSet (AddHub makes them for a
		// fresh hub, deduplicated there): look for a duplicate here.
		for _, x := range g.edges[dst.ID] {
			if x.Src == e.Src && x.Cell == e.Cell {
				return false
			}
		}
		g.appendEdge(dst, e)
		return true
	}
	k := edgeKey{src: -1, cell: e.Cell, dst: int32(dst.ID)}
	if e.Src != nil {
		k.src = int32(e.Src.ID)
	}
	if g.inSeqIdx(k) {
		return false
	}
	if _, ok := g.edgeSet[k]; ok {
		return false
	}
	g.edgeSet[k] = struct{}{}
	g.appendEdge(dst, e)
	return true
}

// appendEdge adds e into dst, known not to be in the graph yet.
func (g *Graph) appendEdge(dst *cfg.Loc, e edge) {
	d := int32(dst.ID)
	g.edges[d] = append(g.edges[d], e)
	if e.Src != nil {
		s := g.succs[e.Src.ID]
		if g.bulk {
			// (sorted and deduplicated at the end of build)
			if len(s) == 0 || s[len(s)-1] != d {
				g.succs[e.Src.ID] = append(s, d)
			}
		} else if i, ok := slices.BinarySearch(s, d); !ok {
			g.succs[e.Src.ID] = slices.Insert(s, i, d)
		}
	}
	g.nEdges++
}

// computeRPO orders the locations in reverse postorder of the CFG plus
// spawn edges, from main's entry; unreachable locations follow.
func (g *Graph) computeRPO() {
	n := len(g.prog.Locs)
	seen := make([]bool, n)
	var post []*cfg.Loc
	type frame struct {
		l *cfg.Loc
		i int
	}
	succsOf := func(l *cfg.Loc) []*cfg.Loc {
		out := l.Succs
		if sp, ok := l.Act.(*cfg.Spawn); ok {
			out = slices.Clone(out)
			for _, t := range sp.Targets {
				if t.Entry != nil {
					out = append(out, t.Entry)
				}
			}
		}
		return out
	}
	dfs := func(root *cfg.Loc) {
		if root == nil || seen[root.ID] {
			return
		}
		seen[root.ID] = true
		stack := []frame{{root, 0}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			ss := succsOf(top.l)
			if top.i < len(ss) {
				s := ss[top.i]
				top.i++
				if !seen[s.ID] {
					seen[s.ID] = true
					stack = append(stack, frame{s, 0})
				}
				continue
			}
			post = append(post, top.l)
			stack = stack[:len(stack)-1]
		}
	}
	for _, t := range g.prog.Templates {
		dfs(t.Entry)
	}
	for _, l := range g.prog.Locs {
		dfs(l)
	}
	slices.Reverse(post)
	g.rpo = post
	g.rpoIdx = make([]int32, n)
	for i, l := range post {
		g.rpoIdx[l.ID] = int32(i)
	}
}

// build computes In for every location and the sequential edges. It
// returns ctx's error, with the edges incomplete, when ctx is done.
func (g *Graph) build(ctx context.Context) error {
	p := g.prog
	n := len(p.Locs)
	g.structVersion++
	g.in = make([][]CellID, n)
	g.edges = make([][]edge, n)
	g.succs = make([][]int32, n)
	g.edgeSet = map[edgeKey]struct{}{}
	g.seqIdx = nil
	g.nEdges, g.nInterf = 0, 0
	g.bulk = true
	defer g.endBulk()

	usedAt := make([][]*cfg.Loc, g.part.NumCells()) // cell -> locations tracking it
	relayed := map[int][]CellID{}
	for _, sp := range g.relays {
		relayed[sp.At.ID] = append(relayed[sp.At.ID], sp.Cells...)
	}
	for id, cs := range g.readerRelayPlan() {
		relayed[id] = append(relayed[id], cs...)
	}
	for _, l := range p.Locs {
		in := slices.Clone(g.uses[l.ID])
		in = append(in, relayed[l.ID]...)
		_, havoc := l.Act.(*cfg.Havoc)
		for _, w := range g.acc[l.ID].writes {
			// The old value is an input unless the write replaces the
			// whole cell: a strong write to a one-variable cell (or a
			// fresh one), or a havoc of a one-variable cell, weak
			// included (havocTracksOld). Not tracking it there keeps
			// the cell's liveness regions, hence the edges, small.
			c := g.part.CellOf(w.v)
			oneVar := len(g.part.Cell(c).Vars) == 1
			if !w.fresh && (w.weak || !oneVar) && !(havoc && oneVar && !havocTracksOld) {
				in = append(in, c)
			}
		}
		for _, c := range g.need {
			if g.needAt != nil && !g.needAt(l) {
				break
			}
			cell := g.part.Cell(c)
			if cell.Global || cell.Vars[0].Template == l.Template {
				in = append(in, c)
			}
		}
		in = sortedSet(in)
		g.in[l.ID] = in
		for _, c := range in {
			usedAt[c] = append(usedAt[c], l)
		}
	}

	// Control edges.
	for _, l := range p.Locs {
		for _, pr := range g.preds[l.ID] {
			g.addEdge(l, edge{Src: pr, Cell: ControlCell})
		}
	}
	for ti, t := range p.Templates {
		if t.Entry == nil {
			continue
		}
		if ti == 0 {
			g.addEdge(t.Entry, edge{Src: nil, Cell: ControlCell})
		}
		for _, s := range g.spawns[t] {
			g.addEdge(t.Entry, edge{Src: s, Cell: ControlCell})
		}
	}

	// Data edges from reaching definitions, one cell at a time (minus
	// the flag-infeasible ones: flagpath.go).
	if g.fp == nil {
		g.fp = newFlagPaths(g)
	}
	if g.pub = newPubRule(g); g.pub != nil {
		g.pub.unsound = g.pubUnsound
	}
	rd := newRDSolver(g)
	rd.ctx = ctx
	twins := newRDGroups(g, rd, usedAt)
	g.fpOn = true
	if err := twins.solveAll(ctx, g, rd, usedAt); err != nil {
		g.fpOn = false
		return err
	}
	g.fpOn = false
	g.pub.restore()
	g.indexEdges()
	g.relayEdges()
	g.readerRelayEdges()
	g.pub.replace()
	return nil
}
