package gen

// Shapes for the precision rules of issue 13 (cfg/tls.go and the
// interference rules): the generator emits them so the oracle compares
// the analysis of these shapes with the explorer's executions.

// markThreadLocal declares, on one seed in five (decided by the seed, not
// drawn: the other draws stay as they were), the first global that no
// mutex guards __thread: every thread then reads and writes its own
// instance, starting at the initializer, which the frontend lowers as a
// local of each template (cfg/tls.go). A thread whose argument is that
// global's address reaches the spawner's instance through it; the IR
// keeps an address-taken thread-local as one shared object.
func (g *generator) markThreadLocal(seed int64) {
	if seed%5 != 3 {
		return
	}
	for _, v := range g.p.Globals {
		if _, guarded := g.guard[v.Name]; !guarded {
			v.ThreadLocal = true
			return
		}
	}
}

// threadLocalPrefix is the storage class of global v in C.
func threadLocalPrefix(v *Var) string {
	if v.ThreadLocal {
		return "__thread "
	}
	return ""
}
