package dfg

import (
	"chorus/cfg"
	"chorus/domains"
)

// Mixed cells relate a thread's locals with globals (relational mode;
// Partition, MixedCells). A mixed cell holds locals of one template, its
// Owner, and globals; with MixedMultiOwner also locals of other templates
// (the statements of the template that relates a global most are merged
// first, the others' after, within the size cap). Every template tracks
// it; in a template's states the dimensions of the other templates'
// locals mean nothing and stay unconstrained: the template's own actions
// never write them, ⊥ and entry edges leave them any value, and foreign
// edges forget all locals of the cell (∃L below), whichever template
// they belong to. So a thread's locals are related only by its own
// template's sequential edges, as with one owner.
//
// Meaning of an edge u —X→ v into a mixed cell X: as for any cell, the
// value of X's globals produced at u may be their value at v. For X's
// locals, only an edge from the same thread carries them: a sequential
// edge within the template. The other edges are foreign, of two kinds:
//
//   - entry edges: sequential edges from another thread's definitions
//     that reach v along the thread's path from its entry (from another
//     template, or a spawn site into the spawned entry). On that path
//     the thread has not written its locals yet: the edge contributes
//     ∃L. post_u, its locals unconstrained (uninitialized).
//   - interference edges (through hubs too): another thread wrote the
//     globals while this thread's locals kept the values of its own
//     history.
//
// So the equation of X at v is
//
//	Φ(v)|X = S ⊔ ( ∃G. S  ⊓  ∃L. F )
//
// where S joins the sequential sources (entry edges with their locals
// forgotten), F the interference sources, ∃G forgets the globals and ∃L
// the locals. S covers the executions in which no other thread wrote X
// since the thread's own last definition; otherwise the globals have the
// foreign writer's value (F, locals forgotten) while the locals keep the
// values of the thread's own history (S, globals forgotten): relations
// among locals survive, their relations with the overwritten globals are
// dropped.
//
// Soundness for any number of threads: locals change only by their own
// thread's actions, all of which lie on the sequential edges; the
// globals' part of each foreign edge is the usual interference argument
// (the game's edges cover every cross-thread last writer). Nothing
// depends on how many threads run.
//
// The interference game sees a mixed cell as a global cell written only
// where a global of it is written (Graph.SharedMod): a location writing
// only its locals changes nothing another thread can see.

// foreign reports whether edge e into loc comes from another thread.
func (g *Graph) foreign(e edge, loc *cfg.Loc) bool {
	if e.Interference {
		return true
	}
	if e.Src == nil {
		return false
	}
	if e.Src.Template != loc.Template {
		return true
	}
	if loc.Template != nil && loc == loc.Template.Entry {
		if _, ok := e.Src.Act.(*cfg.Spawn); ok {
			return true
		}
	}
	return false
}

// forgetLocals is ∃L. v for mixed cell c.
func forgetLocals(c *Cell, v domains.Value) domains.Value {
	for _, i := range c.locals {
		v = v.Forget(i)
	}
	return v
}

// mixForeign combines the sequential join seq (nil when none) and the
// interference join frn of mixed cell c: seq ⊔ (∃G.seq ⊓ ∃L.frn).
// keepLocals (the test-only breakage WithUnsoundMixedJoin) skips ∃L.
//
// mono gives the monotone globals (Monotone): for such a global g the
// seq part keeps g's relations in the weakened form "g moved only in its
// direction since" instead of forgetting g (∃G becomes ∃g₀. S[g₀/g] ⊓
// g ≥ g₀, or ≤ for a non-increasing g).
func mixForeign(c *Cell, seq, frn domains.Value, keepLocals bool, mono map[*cfg.Var]int) domains.Value {
	fl := frn
	if !keepLocals {
		fl = forgetLocals(c, frn)
	}
	if seq == nil {
		return fl
	}
	sg := seq
	for _, i := range c.globals {
		if d := mono[c.Vars[i]]; d != 0 {
			sg = sinceMoved(sg, i, d)
			continue
		}
		sg = sg.Forget(i)
	}
	return seq.Join(sg.Meet(fl))
}

// sinceMoved is ∃g₀. v[g₀/g] ⊓ dir·(g - g₀) ≥ 0 for dimension g: what v
// says of g now that g may have moved, but only in direction dir (+1: up,
// -1: down).
func sinceMoved(v domains.Value, g, dir int) domains.Value {
	n := v.Dim()
	w := v.AddDims(1).Assign(n, domains.Var(g)).Forget(g)
	var c domains.LinCons
	var ok bool
	if dir > 0 {
		c, ok = domains.Ge(domains.Var(g), domains.Var(n))
	} else {
		c, ok = domains.Le(domains.Var(g), domains.Var(n))
	}
	if ok {
		w = w.Assume(c)
	}
	keep := make([]int, n)
	for i := range keep {
		keep[i] = i
	}
	return w.Project(keep)
}

// SharedMod returns the cells act(loc) may modify as another thread can
// see them: Mod without the mixed cells of which loc writes only locals.
func (g *Graph) SharedMod(loc *cfg.Loc) []CellID {
	mod := g.mod[loc.ID]
	var out []CellID
	for _, c := range mod {
		if !g.part.cells[c].Mixed() {
			out = append(out, c)
			continue
		}
		for _, w := range g.acc[loc.ID].writes {
			if w.v.Scope == cfg.Global && g.part.CellOf(w.v) == c {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// WithUnsoundMixedJoin is UNSOUND, for the soundness oracle's mutation
// test only: the locals of interference sources into mixed cells are not
// forgotten (∃L is skipped), so another thread's locals pass for this
// thread's.
func WithUnsoundMixedJoin() Option { return func(o *options) { o.unsoundMixedJoin = true } }

// markAlsoInterference flags the sequential edge src —cell→ dst of a
// mixed cell as an interference edge too: the interference engine found
// that another thread's write at src (another instance of the same
// template) reaches dst. For a one-thread cell the two edges carry the
// same value and one suffices; for a mixed cell they mean different
// things (mixed.go), so the solver must count both.
func (g *Graph) markAlsoInterference(src *cfg.Loc, cell CellID, dst *cfg.Loc) bool {
	es := g.edges[dst.ID]
	for i := range es {
		e := &es[i]
		if e.Src == src && e.Cell == cell && !e.Interference {
			if e.AlsoInterference {
				return false
			}
			e.AlsoInterference = true
			g.nInterf++
			g.pending = append(g.pending, dst)
			g.reflagged = append(g.reflagged, dst)
			return true
		}
	}
	return false
}
