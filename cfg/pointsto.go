package cfg

// The points-to analysis: flow-insensitive, inclusion-based (Andersen),
// field-sensitive through normalized offsets, run over the lowered IR.
//
// Why Andersen rather than Steensgaard: the programs are small after
// lowering (at most a few hundred thousand locations), and unification
// would merge every lock passed through a common helper (ddverify's
// drivers pass all their locks through the same inlined wrappers), which
// would make lock words weak and lose most mutual exclusion.
//
// Abstract locations are (object, normalized offset) pairs: array elements
// are collapsed to the first element (normalize in types.go), and
// anyOff stands for every offset of the object. Values flow through every
// expression, not only pointer-typed ones, so pointers stored in integers
// are tracked. Pointer arithmetic by a multiple of the element size of an
// enclosing array keeps the normalized offset (in-bounds arithmetic,
// C11 6.5.6p8); other non-constant arithmetic gives anyOff.

import (
	"iter"
	"math/bits"
	"sort"
)

const anyOff = int64(-1) << 62

// ploc packs an abstract location: the object ID in the high 32 bits, the
// normalized offset + 1 in the low 32 bits (0: anyOff). A uint64 key keeps
// the sets' hashing cheap.
type ploc uint64

func mkloc(obj int32, off int64) ploc {
	if off == anyOff {
		return ploc(uint64(uint32(obj)) << 32)
	}
	return ploc(uint64(uint32(obj))<<32 | uint64(uint32(off+1)))
}

func (l ploc) objID() int32 { return int32(uint32(l >> 32)) }

func (l ploc) offset() int64 {
	if uint32(l) == 0 {
		return anyOff
	}
	return int64(uint32(l)) - 1
}

// ptset is a set of abstract locations: a bitset over their indices in
// pta.locs (interned on first use). Unions are word-wise ORs, which keeps
// the repeated re-evaluation of constraints cheap on large programs.
type ptset []uint64

func (s ptset) empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// id interns l.
func (a *pta) id(l ploc) int {
	if i, ok := a.idx[l]; ok {
		return i
	}
	i := len(a.locs)
	a.idx[l] = i
	a.locs = append(a.locs, l)
	a.anyI = append(a.anyI, -1)
	return i
}

// with returns s with l added (s may be modified in place).
func (a *pta) with(s ptset, l ploc) ptset {
	i := a.id(l)
	for len(s) <= i/64 {
		s = append(s, 0)
	}
	s[i/64] |= 1 << (i % 64)
	return s
}

// has reports whether l is in s.
func (a *pta) has(s ptset, l ploc) bool {
	i, ok := a.idx[l]
	return ok && i/64 < len(s) && s[i/64]&(1<<(i%64)) != 0
}

// orInto adds src to *dst and reports whether *dst changed.
func orInto(dst *ptset, src ptset) bool {
	d := *dst
	changed := false
	for i, w := range src {
		if w == 0 {
			continue
		}
		if i >= len(d) {
			d = append(d, make([]uint64, i+1-len(d))...)
		}
		if d[i]|w != d[i] {
			d[i] |= w
			changed = true
		}
	}
	*dst = d
	return changed
}

// all iterates over the locations of s.
func (a *pta) all(s ptset) iter.Seq[ploc] {
	return func(yield func(ploc) bool) {
		for wi, w := range s {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				w &^= 1 << b
				if !yield(a.locs[wi*64+b]) {
					return
				}
			}
		}
	}
}

// one is the set {l}.
func (a *pta) one(l ploc) ptset { return a.with(nil, l) }

type pta struct {
	b       *builder
	pts     []ptset // by Var.ID (and <reach> at len(Vars)): the solution
	cur     int32   // (unused: -1)
	unknown ploc

	reachVar *Var

	idx  map[ploc]int // interned locations
	locs []ploc
	anyI []int32 // by index: the index of the same object at anyOff (-1: not yet)

	mark      []uint32 // by Var.ID: stamp of the last cellsOfSet that listed it
	stamp     uint32
	addrMemo  map[*AddrOf]ptset
	normMemo  map[normKey][]int64
	cellsMemo map[cellsKey][]*Var
}

// read returns pts(v) (the solution).
func (a *pta) read(v *Var) ptset {
	if v.ID < len(a.pts) {
		return a.pts[v.ID]
	}
	return nil
}

type normKey struct {
	obj *Object
	off int64
}

type cellsKey struct {
	obj *Object
	off int64
	t   Type
	any bool // t == nil
}

// normM is b.norm, memoized.
func (a *pta) normM(o *Object, off int64) []int64 {
	k := normKey{o, off}
	if n, ok := a.normMemo[k]; ok {
		return n
	}
	n := a.b.norm(o, off)
	a.normMemo[k] = n
	return n
}

// cellsAtM is b.cellsAt, memoized.
func (a *pta) cellsAtM(o *Object, off int64, t *Type) []*Var {
	k := cellsKey{obj: o, off: off, any: t == nil}
	if t != nil {
		k.t = *t
	}
	if c, ok := a.cellsMemo[k]; ok {
		return c
	}
	c := a.b.cellsAt(o, off, t)
	a.cellsMemo[k] = c
	return c
}

// withAny adds l's object at anyOff to s.
func (a *pta) withAny(s ptset, li int) ptset {
	j := a.anyI[li]
	if j < 0 {
		j = int32(a.id(mkloc(a.locs[li].objID(), anyOff)))
		a.anyI[li] = j
	}
	for len(s) <= int(j)/64 {
		s = append(s, 0)
	}
	s[j/64] |= 1 << (j % 64)
	return s
}

// allIdx iterates over the location indices of s.
func allIdx(s ptset) iter.Seq[int] {
	return func(yield func(int) bool) {
		for wi, w := range s {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				w &^= 1 << b
				if !yield(wi*64 + b) {
					return
				}
			}
		}
	}
}

func (b *builder) pointsTo() *pta {
	a := &pta{b: b, idx: map[ploc]int{}, addrMemo: map[*AddrOf]ptset{}, normMemo: map[normKey][]int64{}, cellsMemo: map[cellsKey][]*Var{}, cur: -1}
	a.unknown = mkloc(int32(b.unknown().ID), anyOff)
	// What a left-out unknown-callee path does: its callback spawns and
	// the havoc of its result (pointsToLiveFallbacks).
	pendingSpawn := map[*Loc]bool{}
	pendingRes := map[*Var]bool{}
	for _, fb := range b.fallbacks {
		if fb.uc.pending {
			for _, l := range fb.uc.spawns {
				pendingSpawn[l] = true
			}
			if fb.uc.res != nil {
				pendingRes[fb.uc.res] = true
			}
		}
	}
	a.solveGraph(func(s *psolver) {
		for _, sc := range b.summaries {
			if sc.res != nil && sc.gi.ret != nil {
				s.copyEdge(int32(sc.gi.ret.ID), int32(sc.res.ID), tID, 0)
			}
		}
		for _, l := range b.prog.Locs {
			switch act := l.Act.(type) {
			case *Assign:
				s.assign(act.Dst, s.expr(act.Src))
			case *Havoc:
				if ref, ok := act.Dst.(*VarRef); ok && pendingRes[ref.Var] {
					break
				}
				if act.Dst.ExprType().Kind == PtrType {
					n := s.newNode()
					s.seed(n, a.one(a.unknown))
					s.assign(act.Dst, n)
				}
			case *Alloc:
				n := s.newNode()
				s.seed(n, a.one(mkloc(int32(act.Site.ID), 0)))
				s.assign(act.Dst, n)
			case *Spawn:
				if act.Arg != nil && !pendingSpawn[l] {
					v := s.expr(act.Arg)
					for _, t := range act.Targets {
						if t.Param != nil {
							s.copyEdge(v, int32(t.Param.ID), tID, 0)
						}
					}
				}
			}
		}
		// Initial values (InitGlobals): registers and object contents.
		for _, v := range b.prog.Vars {
			if v.Init != nil && !v.IsCell() {
				s.copyEdge(s.expr(v.Init), int32(v.ID), tID, 0)
			}
		}
		for _, o := range b.prog.Objects {
			for _, iv := range o.Init {
				if _, ok := iv.Value.(*Const); ok {
					continue
				}
				v := s.expr(iv.Value)
				for _, n := range b.norm(o, iv.Offset) {
					for _, c := range b.cellsAt(o, n, &iv.Type) {
						s.copyEdge(v, int32(c.ID), tID, 0)
					}
				}
			}
		}
		// The memory effect of all unknown calls goes through one
		// pseudo-variable R holding everything reachable from any unknown
		// call's arguments (reachability distributes over union): R ⊇
		// args (any offset); for each object o in R, R ⊇ pts(cells of o)
		// and o's pointer cells get <unknown>. Results of unknown calls
		// get R.
		if len(b.unknownCalls) == 0 && len(b.cbParams) == 0 && len(b.clientObjs) == 0 && len(b.variadicArgs) == 0 {
			return
		}
		a.reachVar = &Var{ID: len(b.prog.Vars), Name: "<reach>"}
		r := int32(a.reachVar.ID)
		// Values unknown code holds: what entries and callbacks return,
		// the fresh objects of a library's client.
		for _, e := range b.clientObjs {
			s.copyEdge(s.expr(e), r, tAny, 0)
		}
		// Variadic arguments: a va_list handed to unknown code (vfprintf)
		// lets it read them, and va_arg returns the address of a slot
		// holding one (libc.go vaArg: the <va_arg> object's cell).
		for _, e := range b.variadicArgs {
			v := s.expr(e)
			s.copyEdge(v, r, tAny, 0)
			if o := b.vaArgObj; o != nil {
				s.copyEdge(v, int32(o.Cells[0].ID), tID, 0)
			}
		}
		if o := b.vaArgObj; o != nil {
			// An aggregate passed by value: the slot holds its contents
			// (the memcpy rule from the caller's object into the slot).
			for _, e := range b.variadicAggs {
				v := s.newNode()
				s.deref(s.expr(e), pderef{node: v, kind: dCopyIn})
				s.deref(s.expr(b.objAddr(o)), pderef{node: v, kind: dCopyOut})
			}
		}
		if o := b.vaArgObj; o != nil && b.unknownMayCallVariadic() {
			// Unknown code calling a variadic function passes anything it
			// holds past the named parameters.
			s.copyEdge(r, int32(o.Cells[0].ID), tID, 0)
		}
		unk := a.one(a.unknown)
		for _, uc := range b.unknownCalls {
			if uc.pending {
				continue
			}
			args := make([]int32, len(uc.args))
			for i, e := range uc.args {
				args[i] = s.expr(e)
			}
			if uc.kind != libcReadOnly {
				for _, n := range args {
					s.copyEdge(n, r, tAny, 0)
				}
			}
			if uc.copyDst != nil {
				// memcpy: the source objects' pointers may land in the
				// destination objects.
				v := s.newNode()
				s.deref(s.expr(uc.copySrc), pderef{node: v, kind: dCopyIn})
				s.deref(s.expr(uc.copyDst), pderef{node: v, kind: dCopyOut})
			}
			if uc.res != nil {
				// The result may point into the objects its arguments
				// point to (strchr, memcpy) or to unknown memory. An
				// unknown external may return any pointer unknown code
				// holds (it may keep pointers between calls).
				res := int32(uc.res.ID)
				s.seed(res, unk)
				if uc.kind == unknownExternal || uc.kind == libcCalls {
					s.copyEdge(r, res, tID, 0)
				}
				for _, n := range args {
					s.copyEdge(n, res, tAny, 0)
				}
			}
		}
		// Address-taken globals: unknown code may have their address.
		for _, e := range b.externalRoots() {
			s.copyEdge(s.expr(e), r, tAny, 0)
		}
		// Callback parameters: anything unknown code may pass (R), or,
		// when only C library models call back (libcCallbackReach), what
		// those hold.
		from := r
		if lr := b.libcCallbackReach(s); lr >= 0 {
			from = lr
		}
		for _, v := range b.cbParams {
			s.seed(int32(v.ID), unk)
			s.copyEdge(from, int32(v.ID), tID, 0)
		}
		s.deref(r, pderef{node: r, kind: dReach})
	})
	return a
}

// libcCallbackReach returns a node L holding what the libcCalls models
// may pass to the callbacks they call, or -1 when some callback may be
// called by other unknown code (a non-pending unknown external or a
// library's client: then the callbacks' parameters keep R, everything
// unknown code reaches).
//
// Why L is enough: a libcCalls model (libc.go) keeps and passes on only
// pointers reachable from the arguments of its calls - qsort's
// comparator gets pointers into the array passed, zlib's zalloc/zfree
// and inflateBack's in/out functions get the opaque or descriptor the
// z_stream or the call names, pthread_once's routine and signal's
// handler get no pointer - or values handed to unknown code: what a
// callback returned (zfree gets back what zalloc returned, perhaps at
// another call) and the thread-specific values a key's destructor gets
// (both in clientObjs). So L ⊇ the arguments of every libcCalls call and
// the clientObjs, closed under memory (dReach, flow-insensitively: any
// pointer any reachable cell ever holds). L ⊆ R (those arguments and
// objects are in R), so the closure's <unknown> seeding changes nothing.
// Narrowing the parameters cuts the loop where a callback writing
// through a parameter pointing to all of R (pigz's inb storing its
// buffer through its out-parameter) made every object of R reach
// everything.
func (b *builder) libcCallbackReach(s *psolver) int32 {
	if b.clientSite != nil {
		return -1
	}
	for _, uc := range b.unknownCalls {
		if !uc.pending && uc.kind == unknownExternal {
			return -1
		}
	}
	l := s.newNode()
	for _, uc := range b.unknownCalls {
		if uc.pending || uc.kind != libcCalls {
			continue
		}
		for _, e := range uc.args {
			s.copyEdge(s.expr(e), l, tAny, 0)
		}
	}
	for _, e := range b.clientObjs {
		s.copyEdge(s.expr(e), l, tAny, 0)
	}
	s.deref(l, pderef{node: l, kind: dReach})
	return l
}

// reachObjs lists the objects reachable from the values of args through
// memory, in the order found, skipping the objects marked in base (whose
// own reach the caller already has: reachability distributes over union).
func (a *pta) reachObjs(args []Expr, base []bool) []int32 {
	seen := map[int32]bool{}
	var queue []int32
	visit := func(s ptset) {
		for l := range a.all(s) {
			o := l.objID()
			if !seen[o] && (base == nil || !base[o]) {
				seen[o] = true
				queue = append(queue, o)
			}
		}
	}
	for _, e := range args {
		visit(a.eval(e))
	}
	for i := 0; i < len(queue); i++ {
		for _, c := range a.b.prog.Objects[queue[i]].Cells {
			visit(a.read(c))
		}
	}
	return queue
}

// reachFrom memoizes the objects reachable from a fixed set of roots (the
// address-taken globals: every unknown call reaches them).
type reachFrom struct {
	objs []int32
	mark []bool // by object ID
}

func (a *pta) reachRoots(roots []Expr) *reachFrom {
	r := &reachFrom{objs: a.reachObjs(roots, nil), mark: make([]bool, len(a.b.prog.Objects))}
	for _, o := range r.objs {
		r.mark[o] = true
	}
	return r
}

// reachCells lists the cells of the data objects reachable from args and
// (when base is not nil) from base's roots, sorted: what an external
// function called with args may write. String literals are immutable
// (writing one is undefined) and functions are not data: an external
// function cannot change them.
func (a *pta) reachCells(args []Expr, base *reachFrom) []*Var {
	var objs []int32
	if base != nil {
		objs = append(append(objs, base.objs...), a.reachObjs(args, base.mark)...)
	} else {
		objs = a.reachObjs(args, nil)
	}
	var out []*Var
	for _, o := range objs {
		if ob := a.b.prog.Objects[o]; ob.Kind != StringObject && ob.Kind != FuncObject {
			out = append(out, ob.Cells...)
		}
	}
	sortVars(out)
	return out
}

// eval computes the abstract locations the value of e may hold.
func (a *pta) eval(e Expr) ptset {
	switch x := e.(type) {
	case *Const:
		return nil
	case *VarRef:
		return a.read(x.Var)
	case *Deref:
		cells := a.cellsOfSet(a.eval(x.Addr), &x.Type)
		if len(cells) == 1 {
			return a.read(cells[0])
		}
		var out ptset
		for _, c := range cells {
			orInto(&out, a.read(c))
		}
		return out
	case *AddrOf:
		if s, ok := a.addrMemo[x]; ok {
			return s
		}
		var out ptset
		for _, n := range a.normM(x.Object, x.Offset) {
			out = a.with(out, mkloc(int32(x.Object.ID), n))
		}
		a.addrMemo[x] = out
		return out
	case *Cast:
		return a.eval(x.X)
	case *Unary:
		if x.Op == Not {
			a.eval(x.X)
			return nil
		}
		return a.anyOffsets(a.eval(x.X))
	case *Binary:
		switch x.Op {
		case PtrAdd:
			base := a.eval(x.X)
			off := a.eval(x.Y)
			var out ptset
			k, isConst := x.Y.(*Const)
			stride := strideOf(x.Y)
			for l := range a.all(base) {
				switch {
				case l.offset() == anyOff:
					out = a.with(out, l)
				case isConst:
					for _, n := range a.normM(a.b.prog.Objects[l.objID()], l.offset()+k.Value) {
						out = a.with(out, mkloc(l.objID(), n))
					}
				case stride != 0 && a.b.strideStays(a.b.prog.Objects[l.objID()], l.offset(), stride):
					out = a.with(out, l)
				default:
					out = a.with(out, mkloc(l.objID(), anyOff))
				}
			}
			for li := range allIdx(off) {
				out = a.withAny(out, li)
			}
			return out
		case Add, Sub, And, Or, Xor:
			s1, s2 := a.eval(x.X), a.eval(x.Y)
			if s1.empty() && s2.empty() {
				return nil
			}
			var out ptset
			for li := range allIdx(s1) {
				out = a.withAny(out, li)
			}
			for li := range allIdx(s2) {
				out = a.withAny(out, li)
			}
			return out
		default:
			a.eval(x.X)
			a.eval(x.Y)
			return nil
		}
	}
	return nil
}

func (a *pta) anyOffsets(s ptset) ptset {
	var out ptset
	for li := range allIdx(s) {
		out = a.withAny(out, li)
	}
	return out
}

// strideOf returns c when e is a multiple of the constant c (0: unknown).
func strideOf(e Expr) int64 {
	switch x := e.(type) {
	case *Binary:
		if x.Op == Mul {
			if k, ok := x.Y.(*Const); ok {
				return k.Value
			}
			if k, ok := x.X.(*Const); ok {
				return k.Value
			}
		}
	case *Cast:
		return strideOf(x.X)
	case *Unary:
		if x.Op == Neg {
			return strideOf(x.X)
		}
	}
	return 0
}

// norm maps a concrete byte offset in object o to normalized offsets.
func (b *builder) norm(o *Object, off int64) []int64 {
	info := b.objInfo[o]
	if info == nil || info.ctype == nil {
		return []int64{0}
	}
	if info.arrayOf {
		es := info.ctype.Size()
		if es > 0 {
			off %= es
			if off < 0 {
				off += es
			}
		}
	} else if sz := info.ctype.Size(); off < 0 || sz <= 0 || off >= sz {
		// Outside the object (out-of-bounds arithmetic, or a pointer one
		// past the end): any offset. This also bounds the analysis.
		return []int64{anyOff}
	}
	return normalize(info.ctype, off)
}

func (b *builder) strideStays(o *Object, off, stride int64) bool {
	info := b.objInfo[o]
	if info == nil || info.ctype == nil {
		return true // a blob has one cell
	}
	if info.arrayOf {
		es := info.ctype.Size()
		if es > 0 && stride%es == 0 {
			return true
		}
	}
	return strideStays(info.ctype, off, stride)
}

// cellsOfSet returns the cells an access of type t (nil: any) to the
// locations s may touch. An access that does not match a cell exactly
// (type punning) touches every cell of the object. An empty result (null
// or unknown pointers) is the <unknown> object's cell.
func (a *pta) cellsOfSet(s ptset, t *Type) []*Var {
	var out []*Var
	a.stamp++
	if len(a.mark) < len(a.b.prog.Vars) {
		a.mark = append(a.mark, make([]uint32, len(a.b.prog.Vars)-len(a.mark))...)
	}
	addC := func(c *Var) {
		if c.ID >= len(a.mark) || a.mark[c.ID] != a.stamp {
			if c.ID < len(a.mark) {
				a.mark[c.ID] = a.stamp
			}
			out = append(out, c)
		}
	}
	for l := range a.all(s) {
		o := a.b.prog.Objects[l.objID()]
		for _, c := range a.cellsAtM(o, l.offset(), t) {
			addC(c)
		}
	}
	if len(out) == 0 {
		for _, c := range a.b.unknown().Cells {
			addC(c)
		}
	}
	if len(out) > 1 {
		sortVars(out)
	}
	return out
}

// cellsAt returns the cells of o touched by an access of type t at
// normalized offset off.
func (b *builder) cellsAt(o *Object, off int64, t *Type) []*Var {
	info := b.objInfo[o]
	if len(o.Cells) == 0 {
		return nil
	}
	if off == anyOff || t == nil || info == nil || info.ctype == nil {
		return o.Cells
	}
	size := t.Size()
	if size <= 0 {
		size = 1
	}
	exact := false
	var out []*Var
	for i, c := range o.Cells {
		cs := info.sizes[i]
		if c.Offset < off+size && off < c.Offset+cs {
			out = append(out, c)
			if c.Offset == off && c.Type.Size() == size && (c.Type.Kind == t.Kind || c.Type.Kind != FloatType && t.Kind != FloatType) {
				exact = true
			}
		}
	}
	if !exact {
		return o.Cells
	}
	return out
}

func sortVars(vs []*Var) {
	sort.Slice(vs, func(i, j int) bool { return vs[i].ID < vs[j].ID })
}

// pointsToLiveFallbacks runs the points-to analysis with the
// unknown-callee path of each indirect call (indirectFallback) left out
// until the analysis shows the call's pointer may hold something other
// than its candidates; then the path is taken in and the analysis runs
// again (each round only adds paths). The paths still left out at the
// end are cut (cutFallbacks). Why this is sound: in the program with
// those paths cut, the analysis is a sound over-approximation, and it
// says none of them is taken; an execution of the real program stays in
// the cut program as long as it takes no cut path, so by induction on its
// steps it never takes one. Before, every path was in the analysis from
// the start, so its arguments were handed to unknown code: pigz's
// my_free(capsule), whose pointer only ever holds free or vacate, put the
// capsule in <reach>, so capsule->probe held <unknown> and that call kept
// its unknown callee, which reaches everything the address-taken globals
// reach. Fixture indirect_fallback_args.c.
func (b *builder) pointsToLiveFallbacks() *pta {
	for _, fb := range b.fallbacks {
		fb.uc.pending = true
	}
	for {
		a := b.pointsTo()
		a.cur = -1
		changed := false
		for _, fb := range b.fallbacks {
			if fb.uc.pending && b.fallbackTaken(a, fb) {
				fb.uc.pending = false
				changed = true
			}
		}
		if !changed {
			return a
		}
	}
}
