package dfg

import (
	"fmt"
	"sort"

	"chorus/cfg"
)

// CellID names a cell of a Partition. ControlCell is the control
// pseudo-cell; the variable cells are numbered from 1.
type CellID int32

// ControlCell is the control-reachability pseudo-cell: it holds no
// variables, its edges follow the CFG (and spawn sites to the entries of
// the spawned templates), and a location none of whose control sources is
// reachable is unreachable even when no data dependence says so.
const ControlCell CellID = 0

// NoCell is returned by CellOf for a variable the partition does not know.
const NoCell CellID = -1

// Cell is a set of variables whose values are tracked together (one
// abstract value of dimension len(Vars)). A cell without globals holds
// locals of one template at most; a mixed cell (locals and globals,
// relational mode) may hold several templates' locals (MixedMultiOwner).
// Global: the cell holds globals; Owner: the template of a mixed cell's
// first local.
type Cell struct {
	ID     CellID
	Vars   []*cfg.Var // sorted by Var.ID
	Global bool
	Owner  *cfg.Template // non-nil for a mixed cell only
	// locals: the positions in Vars of the locals of a mixed cell;
	// globals: those of its globals.
	locals, globals []int
}

// Mixed reports whether c holds both locals (of Owner) and globals.
func (c *Cell) Mixed() bool { return c.Owner != nil }

func (c *Cell) String() string {
	if c.ID == ControlCell {
		return "ctl"
	}
	if len(c.Vars) == 1 {
		return c.Vars[0].Name
	}
	s := "{"
	for i, v := range c.Vars {
		if i > 0 {
			s += ","
		}
		s += v.Name
	}
	return s + "}"
}

// MaxRelationalCellVars caps the size of a relational cell: a union that
// would make a cell larger is skipped (octagon operations are cubic in the
// cell size). Skipping a union only loses relations, never soundness.
const MaxRelationalCellVars = 12

// SmallProgramCellVars is the cap of programs with at most
// SmallProgramLocs locations: there a cell of 32 variables costs little
// in total (qrcu-2, 215 locations: 1.3 -> 2.5 s CPU) and relates more of
// each template's temporaries with the globals they were read from
// (Goblint octagon 146 -> 158/196); a 2,300-location driver took 5x the
// CPU with it, hence the size bound.
const (
	SmallProgramCellVars = 32
	SmallProgramLocs     = 500
)

// cellCap is the cell size cap for p.
func cellCap(p *cfg.Program) int {
	if len(p.Locs) <= SmallProgramLocs {
		return SmallProgramCellVars
	}
	return MaxRelationalCellVars
}

// MixedMultiOwner lets a mixed cell hold the locals of several templates
// (a second pass after the one-template assignment, within the size cap;
// see mixed.go for why a template's locals mean nothing, and stay
// unconstrained, in another template's states). Goblint octagon 133 ->
// 140/196 (main's loads of globals another template writes together).
var MixedMultiOwner = true

// Partition maps every variable of a program to its cell.
type Partition struct {
	cells  []*Cell  // cells[0] is the control cell
	cellOf []CellID // by Var.ID
	index  []int    // by Var.ID: the variable's position in its cell's Vars
	hasInt []bool   // by CellID: the cell has an integer variable
}

// NewPartition builds the cells of p. Non-relational: one cell per Var.
// Relational (DESIGN.md §3): union-find where an assignment merges the cells
// of its integer variables when all of them are locals of one template or
// all are globals, and an assume (or check condition) does the same for its
// variables. Only integer-typed variables are merged (pointers and floats
// are never tracked), and memory cells take part only when the access names
// exactly one non-summary cell: a summary cell stands for several concrete
// locations, so relations with it would not be sound to use (reads of a
// summary cell are interval-only, see the transfer functions).
func NewPartition(p *cfg.Program, relational bool) *Partition {
	n := len(p.Vars)
	maxCell := cellCap(p)
	parent := make([]int, n)
	size := make([]int, n)
	for i := range parent {
		parent[i] = i
		size[i] = 1
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(vars []*cfg.Var) {
		if len(vars) < 2 {
			return
		}
		first := vars[0]
		for _, v := range vars[1:] {
			if v.Scope != first.Scope || (v.Scope == cfg.Local && v.Template != first.Template) {
				return // mixed: no merge at all (DESIGN.md §3)
			}
		}
		for _, v := range vars[1:] {
			a, b := find(first.ID), find(v.ID)
			if a == b || size[a]+size[b] > maxCell {
				continue
			}
			if size[a] < size[b] {
				a, b = b, a
			}
			parent[b] = a
			size[a] += size[b]
		}
	}
	actVars := func(l *cfg.Loc) []*cfg.Var {
		var vars []*cfg.Var
		switch a := l.Act.(type) {
		case *cfg.Assign:
			vars = relVars(vars, a.Dst)
			vars = relVars(vars, a.Src)
		case *cfg.Assume:
			vars = relVars(vars, a.Cond)
		case *cfg.CheckAct:
			vars = relVars(vars, a.Cond)
		}
		return dedupVars(vars)
	}
	if relational {
		for _, l := range p.Locs {
			union(actVars(l))
		}
	}
	if relational && MixedCells {
		// Mixed cells (mixed.go): relate a thread's locals with the
		// globals they are read from, written to or compared with. A
		// global joins the cell of one template's locals only (the first
		// template in the order below that relates them).
		owner := map[int]*cfg.Template{} // by root: the template of its locals
		for _, v := range p.Vars {
			if v.Scope == cfg.Local {
				owner[v.ID] = v.Template
			}
		}
		for _, v := range p.Vars {
			if r := find(v.ID); owner[r] == nil && owner[v.ID] != nil {
				owner[r] = owner[v.ID]
			}
		}
		multi := false // second pass: several templates' locals per cell
		mixUnion := func(vars []*cfg.Var) {
			for _, v := range vars {
				if v.Scope == cfg.Local && isParam(p, v) {
					return // a spawned parameter is written by the spawn site (another thread)
				}
			}
			for _, v := range vars[1:] {
				a, b := find(vars[0].ID), find(v.ID)
				if a == b || size[a]+size[b] > maxCell {
					continue
				}
				oa, ob := owner[a], owner[b]
				if oa != nil && ob != nil && oa != ob && !multi {
					continue
				}
				if size[a] < size[b] {
					a, b = b, a
				}
				parent[b] = a
				size[a] += size[b]
				if oa == nil {
					oa = ob
				}
				owner[a] = oa
			}
		}
		byTemplate := map[*cfg.Template][]*cfg.Loc{}
		mixing := map[*cfg.Template]int{}
		relating := map[*cfg.Var]map[*cfg.Template]int{} // global -> template -> statements relating them
		for _, l := range p.Locs {
			byTemplate[l.Template] = append(byTemplate[l.Template], l)
			if vars := actVars(l); len(vars) >= 2 && mixesScopes(vars) {
				mixing[l.Template]++
				for _, v := range vars {
					if v.Scope == cfg.Global {
						if relating[v] == nil {
							relating[v] = map[*cfg.Template]int{}
						}
						relating[v][l.Template]++
					}
				}
			}
		}
		// The templates that relate locals with globals most go first
		// (they gain most); on ties, spawned templates before main.
		order := append(append([]*cfg.Template(nil), p.Templates[1:]...), p.Templates[:1]...)
		sort.SliceStable(order, func(i, j int) bool { return mixing[order[i]] > mixing[order[j]] })
		// Each global goes to the template with the most statements
		// relating it with its locals (ties: the order above).
		prefer := map[*cfg.Var]*cfg.Template{}
		for gv, by := range relating {
			for _, t := range order {
				if by[t] > by[prefer[gv]] {
					prefer[gv] = t
				}
			}
		}
		// Then (MixedMultiOwner) the other templates' statements relating
		// locals with globals, as far as the size cap allows: a cell may
		// hold the locals of several templates.
		for pass := 0; pass < 2; pass++ {
			multi = pass == 1
			if multi && !MixedMultiOwner {
				break
			}
			for _, t := range order {
				for _, l := range byTemplate[t] {
					vars := actVars(l)
					if len(vars) < 2 || !mixesScopes(vars) {
						continue
					}
					keep := vars[:0:0]
					for _, v := range vars {
						if v.Scope != cfg.Global || prefer[v] == t || multi {
							keep = append(keep, v)
						}
					}
					if len(keep) >= 2 && mixesScopes(keep) {
						mixUnion(keep)
					}
				}
			}
		}
		// Loop counters with the globals their loops step
		// (partition_loops.go), last: within the cap, never instead of
		// the merges above.
		multi = MixedMultiOwner
		for _, pr := range loopCounterPairs(p) {
			mixUnion([]*cfg.Var{pr[0], pr[1]})
		}
	}
	part := &Partition{cellOf: make([]CellID, n), index: make([]int, n)}
	part.cells = append(part.cells, &Cell{ID: ControlCell})
	rootCell := map[int]CellID{}
	for _, v := range p.Vars {
		r := find(v.ID)
		id, ok := rootCell[r]
		if !ok {
			id = CellID(len(part.cells))
			rootCell[r] = id
			part.cells = append(part.cells, &Cell{ID: id})
		}
		c := part.cells[id]
		part.index[v.ID] = len(c.Vars)
		if v.Scope == cfg.Global {
			c.Global = true
			c.globals = append(c.globals, len(c.Vars))
		} else {
			c.locals = append(c.locals, len(c.Vars))
			if c.Owner == nil {
				c.Owner = v.Template
			}
		}
		c.Vars = append(c.Vars, v)
		part.cellOf[v.ID] = id
	}
	for _, c := range part.cells[1:] {
		if !c.Global || len(c.locals) == 0 {
			c.Owner, c.locals, c.globals = nil, nil, nil
		}
	}
	part.hasInt = make([]bool, len(part.cells))
	for _, c := range part.cells {
		for _, v := range c.Vars {
			if v.Type.IsInt() {
				part.hasInt[c.ID] = true
			}
		}
	}
	return part
}

// relVars appends the variables of e that relational cells may relate:
// integer registers, and the single non-summary cell of a Deref.
func relVars(out []*cfg.Var, e cfg.Expr) []*cfg.Var {
	switch e := e.(type) {
	case *cfg.VarRef:
		if e.Var.Type.IsInt() {
			out = append(out, e.Var)
		}
	case *cfg.Deref:
		if len(e.Cells) == 1 && !e.Cells[0].Summary && e.Cells[0].Type.IsInt() && e.Cells[0].Type == e.Type {
			out = append(out, e.Cells[0])
		}
	case *cfg.Unary:
		out = relVars(out, e.X)
	case *cfg.Binary:
		out = relVars(out, e.X)
		out = relVars(out, e.Y)
	case *cfg.Cast:
		out = relVars(out, e.X)
	}
	return out
}

func dedupVars(vs []*cfg.Var) []*cfg.Var {
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
	out := vs[:0]
	for i, v := range vs {
		if i == 0 || vs[i-1] != v {
			out = append(out, v)
		}
	}
	return out
}

// Cells returns all cells; Cells()[0] is the control cell.
func (p *Partition) Cells() []*Cell { return p.cells }

// Cell returns the cell with the given id.
func (p *Partition) Cell(id CellID) *Cell { return p.cells[id] }

// NumCells is len(Cells()).
func (p *Partition) NumCells() int { return len(p.cells) }

// CellOf returns the cell of v (NoCell for a variable of another program).
func (p *Partition) CellOf(v *cfg.Var) CellID {
	if v == nil || v.ID < 0 || v.ID >= len(p.cellOf) {
		return NoCell
	}
	return p.cellOf[v.ID]
}

// IndexInCell returns v's position in its cell's Vars (the dimension of v
// in the cell's abstract value).
func (p *Partition) IndexInCell(v *cfg.Var) int { return p.index[v.ID] }

// HasInt reports whether cell c has an integer variable (cells of only
// pointers and floats are always ⊤).
func (p *Partition) HasInt(c CellID) bool { return c >= 0 && int(c) < len(p.hasInt) && p.hasInt[c] }

func (p *Partition) String() string {
	s := ""
	for _, c := range p.cells[1:] {
		s += fmt.Sprintf("c%d=%s ", c.ID, c)
	}
	return s
}

// MixedCells enables mixed cells in relational partitions (mixed.go);
// tests turn it off to compare.
var MixedCells = true

func mixesScopes(vars []*cfg.Var) bool {
	l, g := false, false
	for _, v := range vars {
		if v.Scope == cfg.Global {
			g = true
		} else {
			l = true
		}
	}
	return l && g
}

func isParam(p *cfg.Program, v *cfg.Var) bool {
	for _, t := range p.Templates {
		if t.Param == v {
			return true
		}
	}
	return false
}
