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
	pts     []ptset // by Var.ID
	readers [][]int32
	regd    map[uint64]bool
	work    []int32
	inWork  []bool
	items   []ptaItem
	cur     int32
	unknown ploc

	reachVar  *Var
	reachDone map[int32]bool

	idx  map[ploc]int // interned locations
	locs []ploc
	anyI []int32 // by index: the index of the same object at anyOff (-1: not yet)

	mark      []uint32 // by Var.ID: stamp of the last cellsOfSet that listed it
	stamp     uint32
	addrMemo  map[*AddrOf]ptset
	normMemo  map[normKey][]int64
	cellsMemo map[cellsKey][]*Var
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

// ptaItem is one constraint source: a location's action or an extra rule.
type ptaItem struct {
	loc  *Loc
	uc   *unknownCall
	sc   *summaryCall
	copy [2]*Var // dst ⊇ src
	// unknown-call rules (see pointsTo)
	reachArg     Expr
	reachClosure bool
	reachObj     int32 // +1: the object whose cells are reached
	unknownTo    *Var
	copyDst      Expr
	copySrc      Expr
	initVar      *Var
	initExpr     Expr
	initObj      *Object
	init         InitValue
	resArgs      []Expr
	reachAll     bool // with unknownTo: pts(unknownTo) ⊇ everything unknown calls reach
}

func (b *builder) pointsTo() *pta {
	a := &pta{b: b, regd: map[uint64]bool{}, idx: map[ploc]int{}, addrMemo: map[*AddrOf]ptset{}, normMemo: map[normKey][]int64{}, cellsMemo: map[cellsKey][]*Var{}}
	a.unknown = mkloc(int32(b.unknown().ID), anyOff)
	for _, l := range b.prog.Locs {
		switch l.Act.(type) {
		case *Assign, *Havoc, *Alloc, *Spawn:
			a.items = append(a.items, ptaItem{loc: l})
		}
	}
	// Initial values (InitGlobals): registers and object contents.
	for _, v := range b.prog.Vars {
		if v.Init != nil && !v.IsCell() {
			a.items = append(a.items, ptaItem{initVar: v, initExpr: v.Init})
		}
	}
	for _, o := range b.prog.Objects {
		for _, iv := range o.Init {
			if _, ok := iv.Value.(*Const); !ok {
				a.items = append(a.items, ptaItem{initObj: o, init: iv})
			}
		}
	}
	// The memory effect of all unknown calls is computed incrementally
	// over one pseudo-variable R holding everything reachable from any
	// unknown call's arguments (reachability distributes over union):
	// R ⊇ args; for each object o in R, R ⊇ pts(cells of o) and o's
	// pointer cells get <unknown>. Results of unknown calls get R.
	if len(b.unknownCalls) > 0 || len(b.cbParams) > 0 || len(b.clientObjs) > 0 {
		a.reachVar = &Var{ID: len(b.prog.Vars), Name: "<reach>"}
		// Values unknown code holds: what entries and callbacks return,
		// the fresh objects of a library's client.
		for _, e := range b.clientObjs {
			a.items = append(a.items, ptaItem{reachArg: e})
		}
		for _, uc := range b.unknownCalls {
			if uc.kind != libcReadOnly {
				for _, e := range uc.args {
					a.items = append(a.items, ptaItem{reachArg: e})
				}
			}
			if uc.copyDst != nil {
				a.items = append(a.items, ptaItem{copyDst: uc.copyDst, copySrc: uc.copySrc})
			}
			if uc.res != nil {
				// The result may point into the objects its arguments
				// point to (strchr, memcpy) or to unknown memory.
				// An unknown external may return any pointer unknown code
				// holds (it may keep pointers between calls).
				a.items = append(a.items, ptaItem{unknownTo: uc.res, resArgs: uc.args, reachAll: uc.kind == unknownExternal})
			}
		}
		// Address-taken globals: unknown code may have their address.
		for _, e := range b.externalRoots() {
			a.items = append(a.items, ptaItem{reachArg: e})
		}
		// Callback parameters: anything unknown code may pass.
		for _, v := range b.cbParams {
			a.items = append(a.items, ptaItem{unknownTo: v, reachAll: true})
		}
		a.items = append(a.items, ptaItem{reachClosure: true})
	}
	for _, sc := range b.summaries {
		if sc.res != nil && sc.gi.ret != nil {
			a.items = append(a.items, ptaItem{copy: [2]*Var{sc.res, sc.gi.ret}})
		}
	}
	a.solve()
	return a
}

func (a *pta) grow() {
	for len(a.pts) < len(a.b.prog.Vars)+1 {
		a.pts = append(a.pts, nil)
		a.readers = append(a.readers, nil)
	}
}

func (a *pta) solve() {
	a.grow()
	a.inWork = make([]bool, len(a.items))
	for i := range a.items {
		a.work = append(a.work, int32(i))
		a.inWork[i] = true
	}
	// FIFO: an item waits while more of its inputs change (LIFO re-ran
	// items once per arriving location on large programs).
	for head := 0; head < len(a.work); head++ {
		i := a.work[head]
		if head > 4096 && head*2 > len(a.work) {
			a.work = append(a.work[:0], a.work[head+1:]...)
			head = -1
		}
		a.inWork[i] = false
		a.cur = i
		item := a.items[i]
		a.run(&item)
	}
	a.cur = -1
}

// read registers the current item as a reader of v and returns pts(v).
func (a *pta) read(v *Var) ptset {
	if rs := a.readers[v.ID]; a.cur >= 0 && (len(rs) == 0 || rs[len(rs)-1] != a.cur) {
		k := uint64(v.ID)<<32 | uint64(a.cur)
		if !a.regd[k] {
			a.regd[k] = true
			a.readers[v.ID] = append(a.readers[v.ID], a.cur)
		}
	}
	return a.pts[v.ID]
}

// add adds s to pts(v), waking its readers on change.
func (a *pta) add(v *Var, s ptset) {
	if orInto(&a.pts[v.ID], s) {
		for _, r := range a.readers[v.ID] {
			if !a.inWork[r] {
				a.inWork[r] = true
				a.work = append(a.work, r)
			}
		}
	}
}

func (a *pta) run(it *ptaItem) {
	switch {
	case it.loc != nil:
		switch act := it.loc.Act.(type) {
		case *Assign:
			a.write(act.Dst, a.eval(act.Src))
		case *Havoc:
			if act.Dst.ExprType().Kind == PtrType {
				a.write(act.Dst, a.one(a.unknown))
			}
			if d, ok := act.Dst.(*Deref); ok {
				a.eval(d.Addr)
			}
		case *Alloc:
			a.write(act.Dst, a.one(mkloc(int32(act.Site.ID), 0)))
		case *Spawn:
			if act.Handle != nil {
				a.eval(act.Handle.(*Deref).Addr)
			}
			if act.Arg != nil {
				s := a.eval(act.Arg)
				for _, t := range act.Targets {
					if t.Param != nil {
						a.add(t.Param, s)
					}
				}
			}
		}
	case it.copyDst != nil:
		var vals ptset
		for l := range a.all(a.eval(it.copySrc)) {
			for _, c := range a.b.prog.Objects[l.objID()].Cells {
				orInto(&vals, a.read(c))
			}
		}
		for l := range a.all(a.eval(it.copyDst)) {
			for _, c := range a.b.prog.Objects[l.objID()].Cells {
				a.add(c, vals)
			}
		}
	case it.initVar != nil:
		a.add(it.initVar, a.eval(it.initExpr))
	case it.initObj != nil:
		s := a.eval(it.init.Value)
		for _, n := range a.b.norm(it.initObj, it.init.Offset) {
			for _, c := range a.b.cellsAt(it.initObj, n, &it.init.Type) {
				a.add(c, s)
			}
		}
	case it.reachArg != nil:
		a.add(a.reachVar, a.anyOffsets(a.eval(it.reachArg)))
	case it.unknownTo != nil:
		a.add(it.unknownTo, a.one(a.unknown))
		if it.reachAll {
			a.add(it.unknownTo, a.read(a.reachVar))
		}
		for _, e := range it.resArgs {
			a.add(it.unknownTo, a.anyOffsets(a.eval(e)))
		}
	case it.reachClosure:
		// spawn one rule per newly reached object
		if a.reachDone == nil {
			a.reachDone = map[int32]bool{}
		}
		for l := range a.all(a.read(a.reachVar)) {
			if !a.reachDone[l.objID()] {
				a.reachDone[l.objID()] = true
				a.items = append(a.items, ptaItem{reachObj: l.objID() + 1})
				a.inWork = append(a.inWork, true)
				a.work = append(a.work, int32(len(a.items)-1))
			}
		}
	case it.reachObj > 0:
		o := a.b.prog.Objects[it.reachObj-1]
		if o.Kind == StringObject || o.Kind == FuncObject {
			return
		}
		unk := a.one(a.unknown)
		for _, c := range o.Cells {
			a.add(a.reachVar, a.anyOffsets(a.read(c)))
			if c.Type.Kind == PtrType || c.Type.Bits >= a.b.model.PtrBits() {
				a.add(c, unk)
			}
		}
	case it.copy[0] != nil:
		a.add(it.copy[0], a.read(it.copy[1]))
	}
}

// reach is the set of objects (at anyOff) reachable from the values of
// args through memory.
func (a *pta) reach(args []Expr) ptset {
	var out ptset
	var queue []int32
	seen := map[int32]bool{}
	visit := func(s ptset) {
		for l := range a.all(s) {
			if !seen[l.objID()] {
				seen[l.objID()] = true
				queue = append(queue, l.objID())
			}
		}
	}
	for _, e := range args {
		visit(a.eval(e))
	}
	for len(queue) > 0 {
		o := a.b.prog.Objects[queue[0]]
		queue = queue[1:]
		for _, c := range o.Cells {
			visit(a.read(c))
		}
	}
	// String literals are immutable (writing one is undefined) and
	// functions are not data: an external function cannot change them.
	objs := make([]int32, 0, len(seen))
	for o := range seen {
		objs = append(objs, o)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i] < objs[j] })
	for _, o := range objs {
		if k := a.b.prog.Objects[o].Kind; k != StringObject && k != FuncObject {
			out = a.with(out, mkloc(o, anyOff))
		}
	}
	return out
}

func (a *pta) write(dst LValue, s ptset) {
	switch d := dst.(type) {
	case *VarRef:
		a.add(d.Var, s)
	case *Deref:
		cells := a.cellsOfSet(a.eval(d.Addr), &d.Type)
		if s.empty() {
			return
		}
		for _, c := range cells {
			a.add(c, s)
		}
	}
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
