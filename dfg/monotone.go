package dfg

import "chorus/cfg"

// WithMonotone makes the solver treat the globals of mono as monotone:
// mono[g] = +1 when no thread's write can make g smaller, -1 when none can
// make it larger. An interference edge into a mixed cell then keeps what
// the thread's own history says of g in that weakened form
// (mixForeign, sinceMoved) instead of forgetting it.
//
// The caller must establish the premise (package analysis, monotone.go:
// every write another thread can make is checked at the fixpoint, and the
// analysis is redone without the globals that fail). Why the weakened
// relation is sound for any number of threads: the sequential part S of a
// mixed cell at v describes the thread's locals (unchanged since, only
// the thread itself writes them) together with g as it was at some
// earlier moment τ of the same execution; every write of g between τ and
// now moves g in direction mono[g] (each write, by whichever thread, is
// one of the checked ones), so g now relates to g at τ as the weakened
// relation says. The number of threads does not matter: the argument is
// about the sequence of writes to g, whoever makes them.
func WithMonotone(mono map[*cfg.Var]int) Option {
	return func(o *options) { o.monotone.all = mono }
}

// WithMonotoneIn gives the monotone globals per reading template: in[t]
// replaces WithMonotone's map at the locations of t. The caller uses it
// for templates with at most one instance (cfg.Template.Unbounded false:
// main, or a thread spawned once by main outside any loop), where only
// the writes of other templates need to move g in the direction: between
// τ and now (see WithMonotone) the one thread of t did not write g (a
// write of g is a definition of the cell, and S's last definition is at
// τ), so every write of g in between was made by a thread of another
// template, each one checked. Again the number of threads of the other
// templates does not matter.
func WithMonotoneIn(in map[*cfg.Template]map[*cfg.Var]int) Option {
	return func(o *options) { o.monotone.in = in }
}

// monoSpec holds WithMonotone's and WithMonotoneIn's maps.
type monoSpec struct {
	all map[*cfg.Var]int
	in  map[*cfg.Template]map[*cfg.Var]int
}

// forTemplate returns the monotone globals for readers in t.
func (m monoSpec) forTemplate(t *cfg.Template) map[*cfg.Var]int {
	if x, ok := m.in[t]; ok {
		return x
	}
	return m.all
}
