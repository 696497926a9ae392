package dfg

import (
	"chorus/cfg"
	"chorus/domains"
)

// Stable globals of a mixed cell at a location.
//
// Into a mixed cell X the interference edges combine as
// S ⊔ (∃G.S ⊓ ∃L.F) (mixed.go): the globals come from the foreign writer,
// and S's relations between the thread's locals and every global are
// dropped. A global g of X that no template with an interference edge of
// X into the location ever writes (its actions, assumes, checks and
// InitGlobals aside: Graph.stableGlobals) keeps them: the equation
// becomes S ⊔ (∃(G∖K).S ⊓ ∃L.F) with K those globals. Two readers that
// each copy x to y under a read lock (SV-COMP
// pthread-atomic/read_write_lock-1): the other reader's `y = l` is an
// interference edge of {x, y, l, ...}, but readers never write x, and the
// writers' edges do not reach the read section, so `t == x` survives.
//
// Why this is sound for any number of threads. Take a thread r at loc
// whose cell X's globals were last written by another thread w (the case
// F covers; otherwise S covers the state alone), and let d be r's last
// definition of X (a sequential source of X at loc: a write, an assume, a
// reader kill, a relay, or r's entry). r's locals of X have their values
// since d. Suppose a thread u wrote g ∈ K after d, the last time at τ.
// From τ on, u wrote X's globals again at most up to some last write w_u
// (a location of u's template), and r defined X no more: the two-thread
// game then has the flow of X from w_u to r at loc (r's moves pass no
// definition of X: game writes and reader kills are definitions), so an
// edge of X from u's template lands at loc, and that template writes g:
// g ∉ K. The filters that keep such an edge out of loc do not apply: the
// protection filter removes every interference edge of X at loc (then F
// is empty and this equation is not used), a joined template's values
// come through a join relay, and a flag epoch's (once.go) through the
// reader's own write, both definitions of X after τ. So g has its value
// at d, together with r's locals: their joint value is in S (as d left
// them, or as a relay or entry passed them on); X's globals as w left
// them are in F. An edge from a hub stands for its sources' edges (a
// hub's sources never change); a reader relay (readrelay.go) keeps no
// global.

// stableGlobals returns the positions in cell c's Vars of the globals of
// mixed cell c that no template with an interference edge of c into loc
// writes (sorted; nil when none).
func (g *Graph) stableGlobals(loc *cfg.Loc, c CellID) []int {
	if g.noStable {
		return nil
	}
	ver := g.nInterf + g.structVersion<<32
	key := int64(loc.ID)<<32 | int64(c)
	if g.stableCache == nil || g.stableVer != ver {
		g.stableCache = map[int64][]int{}
		g.stableVer = ver
	}
	if k, ok := g.stableCache[key]; ok {
		return k
	}
	if g.writtenBy == nil {
		g.writtenBy = map[*cfg.Template]map[*cfg.Var]bool{}
		for _, l := range g.prog.Locs {
			switch l.Act.(type) {
			case *cfg.Assume, *cfg.CheckAct, *cfg.InitGlobals:
				continue
			}
			for _, v := range cfg.ModVars(l.Act) {
				if v.Scope != cfg.Global {
					continue
				}
				m := g.writtenBy[l.Template]
				if m == nil {
					m = map[*cfg.Var]bool{}
					g.writtenBy[l.Template] = m
				}
				m[v] = true
			}
		}
	}
	cell := g.part.cells[c]
	var out []int
	seen := map[*cfg.Template]bool{}
	ok := !g.isReaderRelay(loc, c)
	for _, e := range g.edges[loc.ID] {
		if !ok {
			break
		}
		if e.Cell != c || !e.Interference && !e.AlsoInterference {
			continue
		}
		if e.Src == nil {
			ok = false
			break
		}
		if g.IsHub(e.Src) {
			// (a hub's sources never change: AddHub makes a new hub)
			for _, h := range g.HubSources(e.Src) {
				seen[h.Template] = true
			}
			continue
		}
		seen[e.Src.Template] = true
	}
	if g.unsoundStable {
		seen = nil // the mutation: every global counts as stable
	}
	if ok {
		for _, i := range cell.globals {
			v := cell.Vars[i]
			keep := true
			for t := range seen {
				if g.writtenBy[t][v] {
					keep = false
					break
				}
			}
			if keep {
				out = append(out, i)
			}
		}
	}
	g.stableCache[key] = out
	return out
}

// WithoutStableGlobals turns the stable globals off (for comparisons).
func (g *Graph) WithoutStableGlobals() { g.noStable = true }

// UnsoundStableGlobals is UNSOUND, for the oracle's mutation test only:
// every global of a mixed cell counts as stable, whichever templates
// write it.
func (g *Graph) UnsoundStableGlobals() { g.unsoundStable = true }

// mixForeignStable is mixForeign (mixed.go) with the globals at the
// positions keep (sorted) left in the seq part: seq ⊔ (∃(G∖K).seq ⊓ ∃L.frn).
func mixForeignStable(c *Cell, seq, frn domains.Value, keepLocals bool, mono map[*cfg.Var]int, keep []int) domains.Value {
	fl := frn
	if !keepLocals {
		fl = forgetLocals(c, frn)
	}
	if seq == nil {
		return fl
	}
	sg := seq
	k := 0
	for _, i := range c.globals {
		for k < len(keep) && keep[k] < i {
			k++
		}
		if k < len(keep) && keep[k] == i {
			continue
		}
		if d := mono[c.Vars[i]]; d != 0 {
			sg = sinceMoved(sg, i, d)
			continue
		}
		sg = sg.Forget(i)
	}
	return seq.Join(sg.Meet(fl))
}
