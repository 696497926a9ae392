package cfg

import (
	"sort"

	"modernc.org/cc/v4"
)

// scalarType maps a C scalar type to the IR type; ok is false for
// aggregates, functions and void.
func (b *builder) scalarType(t cc.Type) (Type, bool) {
	if t == nil {
		return Type{}, false
	}
	if isLockType(t) {
		return Int32, true
	}
	switch t.Kind() {
	case cc.Ptr:
		return Type{Kind: PtrType, Bits: b.model.PtrBits()}, true
	case cc.Bool, cc.Char, cc.SChar, cc.UChar, cc.Short, cc.UShort, cc.Int, cc.UInt,
		cc.Long, cc.ULong, cc.LongLong, cc.ULongLong, cc.Enum:
		sz := t.Size()
		if sz <= 0 || sz > 8 {
			sz = 4
		}
		signed := cc.IsSignedInteger(t)
		if t.Kind() == cc.Enum {
			if e, ok := t.(*cc.EnumType); ok && e.UnderlyingType() != nil {
				signed = cc.IsSignedInteger(e.UnderlyingType())
			}
		}
		return Type{Kind: IntType, Bits: int(sz * 8), Signed: signed}, true
	case cc.Int128, cc.UInt128:
		// The IR's values are 64 bits wide: a 128-bit scalar keeps a 64-bit
		// IR type, and the builder never reads a 64-bit value as one
		// (wideint.go: its values, conversions and objects are unknowns).
		return Type{Kind: IntType, Bits: 64, Signed: t.Kind() == cc.Int128}, true
	case cc.Float, cc.Float32:
		return Type{Kind: FloatType, Bits: 32}, true
	case cc.Double, cc.LongDouble, cc.Float64, cc.Float32x, cc.Float64x, cc.Float128, cc.Float128x, cc.Float16, cc.BFloat16,
		cc.Decimal32, cc.Decimal64, cc.Decimal128:
		return Type{Kind: FloatType, Bits: 64}, true
	}
	if cc.IsComplexType(t) {
		return Type{}, false
	}
	return Type{}, false
}

// mustScalar is scalarType for contexts that need a scalar.
func (b *builder) mustScalar(t cc.Type) Type {
	st, ok := b.scalarType(t)
	if !ok {
		b.fail("unsupported non-scalar type %v here", t)
	}
	return st
}

// isLockType reports whether t is pthread_mutex_t, pthread_spinlock_t or
// pthread_rwlock_t
// (by typedef name, as in glibc and the ddverify models). An object of
// such a type is modelled as one lock word: a single i32 cell at offset 0
// covering the whole object, 0 = unlocked (PTHREAD_MUTEX_INITIALIZER and
// zero-initialization both give 0).
func isLockType(t cc.Type) bool {
	if t == nil {
		return false
	}
	if d := t.Typedef(); d != nil {
		switch d.Name() {
		case "pthread_mutex_t", "pthread_spinlock_t", "pthread_rwlock_t":
			return t.Kind() == cc.Struct || t.Kind() == cc.Union || cc.IsIntegerType(t)
		}
	}
	return false
}

func isAggregate(t cc.Type) bool {
	if isLockType(t) {
		return false
	}
	switch t.Kind() {
	case cc.Struct, cc.Union, cc.Array:
		return true
	}
	return cc.IsComplexType(t)
}

// leaf is one scalar position of an object's layout, in normalized offsets:
// every array is collapsed to its first element, so a leaf inside an array
// stands for all elements (summary).
type leaf struct {
	off     int64
	typ     Type
	summary bool
	name    string
	field   *cc.Field // the bit-field whose storage unit this is, if any
}

// maxLeaves bounds the cells of one object; beyond it the object is one
// summary blob (sound: every access overlaps the blob, which is then not a
// faithful copy of any value).
const maxLeaves = 4096

// layout computes the leaves of type t (nil: none, the object is a blob).
func (b *builder) layout(t cc.Type) []leaf {
	b.checkLayout(t)
	var out []leaf
	ok := b.leaves(t, 0, false, "", &out, 0)
	if !ok || len(out) > maxLeaves {
		return nil
	}
	// Dedupe identical leaves (union members sharing a position and type).
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].off != out[j].off {
			return out[i].off < out[j].off
		}
		return out[i].typ.Bits < out[j].typ.Bits
	})
	res := out[:0]
	for _, l := range out {
		if n := len(res); n > 0 && res[n-1].off == l.off && res[n-1].typ == l.typ {
			res[n-1].summary = res[n-1].summary || l.summary
			continue
		}
		res = append(res, l)
	}
	return res
}

func (b *builder) leaves(t cc.Type, off int64, summary bool, name string, out *[]leaf, depth int) bool {
	if depth > 64 || len(*out) > maxLeaves {
		return false
	}
	if isWideInt(t) {
		return false // a blob (wideint.go)
	}
	if st, ok := b.scalarType(t); ok {
		*out = append(*out, leaf{off: off, typ: st, summary: summary, name: name})
		return true
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		if x.Elem().Size() <= 0 {
			return false
		}
		return b.leaves(x.Elem(), off, true, name+"[*]", out, depth+1)
	case *cc.StructType:
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			if !b.fieldLeaves(f, off, summary, name, out, depth) {
				return false
			}
		}
		return true
	case *cc.UnionType:
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			if !b.fieldLeaves(f, off, summary, name, out, depth) {
				return false
			}
		}
		return true
	}
	if t.Kind() == cc.Void || t.Size() == 0 {
		return true // empty: no cells
	}
	return false
}

func (b *builder) fieldLeaves(f *cc.Field, off int64, summary bool, name string, out *[]leaf, depth int) bool {
	fname := name + "." + f.Name()
	if f.Name() == "" {
		fname = name
	}
	if f.IsBitfield() {
		ut := Type{Kind: IntType, Bits: int(f.AccessBytes() * 8)}
		if ut.Bits == 0 {
			return true
		}
		if ut.Bits > 64 {
			return false // a 128-bit unit: a blob (wideint.go)
		}
		*out = append(*out, leaf{off: off + f.Offset(), typ: ut, summary: summary, name: fname, field: f})
		return true
	}
	if f.Type().Kind() == cc.Array && f.Type().Size() <= 0 {
		// Flexible array member: elements live past the struct's size.
		if at, ok := f.Type().(*cc.ArrayType); ok && at.Elem().Size() > 0 {
			return b.leaves(at.Elem(), off+f.Offset(), true, fname+"[*]", out, depth+1)
		}
		return true
	}
	return b.leaves(f.Type(), off+f.Offset(), summary, fname, out, depth+1)
}

// normalize maps a concrete byte offset inside type t to the normalized
// offsets it may stand for (array indices zeroed). Inside a union, every
// member covering the offset contributes. Offsets outside t are returned
// unchanged.
func normalize(t cc.Type, off int64) []int64 {
	var out []int64
	normalizeInto(t, off, 0, &out, 0)
	if len(out) == 0 {
		return []int64{off}
	}
	return out
}

func normalizeInto(t cc.Type, off, base int64, out *[]int64, depth int) {
	if depth > 64 || t == nil {
		*out = append(*out, base+off)
		return
	}
	size := t.Size()
	if off < 0 || (size > 0 && off >= size && t.Kind() != cc.Array) {
		*out = append(*out, base+off)
		return
	}
	if isLockType(t) {
		*out = append(*out, base)
		return
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		es := x.Elem().Size()
		if es <= 0 {
			*out = append(*out, base+off)
			return
		}
		normalizeInto(x.Elem(), off%es, base, out, depth+1)
		return
	case *cc.StructType:
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			fs := f.Type().Size()
			if f.IsBitfield() {
				fs = f.AccessBytes()
			}
			if off >= f.Offset() && (off < f.Offset()+fs || (fs <= 0 && f.Type().Kind() == cc.Array)) {
				if f.IsBitfield() {
					*out = append(*out, base+f.Offset())
					return
				}
				normalizeInto(f.Type(), off-f.Offset(), base+f.Offset(), out, depth+1)
				return
			}
		}
		*out = append(*out, base+off)
		return
	case *cc.UnionType:
		n := len(*out)
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			if off < f.Type().Size() {
				normalizeInto(f.Type(), off, base, out, depth+1)
			}
		}
		if len(*out) == n {
			*out = append(*out, base+off)
		}
		return
	}
	*out = append(*out, base+off)
}

// strideStays reports whether adding any multiple of stride to a pointer at
// normalized offset off inside t stays at the same normalized offset: true
// when off lies inside an array of t whose element size divides stride.
// This assumes pointer arithmetic stays inside the array it starts in
// (C11 6.5.6p8: anything else is undefined).
func strideStays(t cc.Type, off, stride int64) bool {
	if stride == 0 {
		return true
	}
	if stride < 0 {
		stride = -stride
	}
	return strideStaysIn(t, off, stride, 0)
}

func strideStaysIn(t cc.Type, off, stride int64, depth int) bool {
	if depth > 64 || t == nil || off < 0 {
		return false
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		es := x.Elem().Size()
		if es <= 0 {
			return false
		}
		if stride%es == 0 {
			return true
		}
		return strideStaysIn(x.Elem(), off%es, stride, depth+1)
	case *cc.StructType:
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			fs := f.Type().Size()
			if off >= f.Offset() && (off < f.Offset()+fs || (fs <= 0 && f.Type().Kind() == cc.Array)) {
				if f.IsBitfield() {
					return false
				}
				return strideStaysIn(f.Type(), off-f.Offset(), stride, depth+1)
			}
		}
	case *cc.UnionType:
		for i := 0; ; i++ {
			f := x.FieldByIndex(i)
			if f == nil {
				break
			}
			if off < f.Type().Size() && !strideStaysIn(f.Type(), off, stride, depth+1) {
				return false
			}
		}
		return x.NumFields() > 0
	}
	return false
}
