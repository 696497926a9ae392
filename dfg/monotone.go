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
	return func(o *options) { o.monotone = mono }
}
