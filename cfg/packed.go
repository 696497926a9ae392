package cfg

import (
	"fmt"
	"strconv"

	"modernc.org/cc/v4"
)

// Packed layouts. modernc.org/cc/v4 records __attribute__((packed)) on a
// struct or union but lays the type out naturally, so its member offsets,
// size and alignment can differ from gcc's: a packed struct { char c; int
// i; } has i at offset 1 and size 5 in gcc's binary, at 4 and 8 in cc's
// types. Reading such a member at cc's offset reads bytes gcc's code never
// wrote there, and sizeof, array strides and object bounds are off, so an
// analysis on cc's layout can prove checks that fail (gccdiff found
// sizeof s != 5 proven). checkLayout rejects (as unsupported) any struct
// or union whose gcc layout differs from cc's; packed types whose natural
// layout already is gcc's (every member aligned, no padding: common in
// kernel headers) are kept.

// checkLayout fails when gcc lays out t (a struct or union, possibly packed
// or holding packed members) differently from cc.
func (b *builder) checkLayout(t cc.Type) {
	if b.layoutDiffers(t) {
		b.fail(layoutDiffersMsg, t)
	}
}

// layoutDiffersMsg is the error for a type gcc lays out differently.
const layoutDiffersMsg = "unsupported: %s is laid out differently by gcc (__attribute__((packed)) or bit-fields): its member offsets or size are not modelled"

// layoutDiffers reports whether gcc lays out t differently from cc, the
// first time it is asked about t (memoised per type: a type found to
// differ has already failed the unit).
func (b *builder) layoutDiffers(t cc.Type) bool {
	if b.layoutChecked == nil {
		b.layoutChecked = map[cc.Type]bool{}
	}
	if _, done := b.layoutChecked[t]; done {
		return false
	}
	b.layoutChecked[t] = true
	_, ok := gccLayoutMatches(t, 0, b.packedMembers())
	return !ok
}

// isPacked reports whether an aggregate type carries the packed attribute.
func isPacked(t cc.Type) bool {
	a := t.Attributes()
	return a != nil && (a.IsAttrSet("packed") || a.IsAttrSet("__packed__"))
}

// gccLayoutMatches reports gcc's alignment of t and whether gcc's layout of
// t (member offsets and size, recursively) is cc's. A type without packing
// inside is cc's by construction; a packed one is recomputed with gcc's
// rules (members of a packed type, and members whose type is packed, align
// to 1 unless an aligned attribute asks for more). Bit-fields inside a
// packed layout are not recomputed: such a type does not match.
//
// packedMembers holds the declarators of members packed by an attribute of
// their own (builder.packedMembers).
func gccLayoutMatches(t cc.Type, depth int, packedMembers map[*cc.Declarator]bool) (align int64, ok bool) {
	if depth > 64 {
		return 0, false
	}
	switch x := t.(type) {
	case *cc.ArrayType:
		if x.Elem() != nil && x.Elem().Size() == 0 && x.Len() > 0 {
			// Elements of size 0 (GNU empty structs): gcc's array has
			// size 0, cc's -1, and a struct holding one is laid out
			// differently (sizeof(struct e[3]) != 0 was proven).
			return 1, false
		}
		return gccLayoutMatches(x.Elem(), depth+1, packedMembers)
	case *cc.StructType, *cc.UnionType:
	default:
		return int64(max(t.Align(), 1)), true
	}
	packed := isPacked(t)
	var fields []*cc.Field
	for i := 0; ; i++ {
		var f *cc.Field
		switch x := t.(type) {
		case *cc.StructType:
			f = x.FieldByIndex(i)
		case *cc.UnionType:
			f = x.FieldByIndex(i)
		}
		if f == nil {
			break
		}
		fields = append(fields, f)
	}
	// First the members' own layouts and whether anything is packed.
	ok = true
	hasPacking, hasBitfield := packed, false
	aligns := make([]int64, len(fields))
	for i, f := range fields {
		fa, fok := gccLayoutMatches(f.Type(), depth+1, packedMembers)
		ok = ok && fok
		if natural := int64(max(f.Type().Align(), 1)); fa != natural {
			hasPacking = true
		}
		if packed || isPacked(f.Type()) || f.Declarator() != nil && packedMembers[f.Declarator()] {
			// A packed member (the attribute on the member itself) aligns to 1.
			fa = 1
			hasPacking = true
		}
		if a := f.Type().Attributes(); a != nil && a.Aligned() > fa {
			fa = a.Aligned()
		}
		aligns[i] = fa
		hasBitfield = hasBitfield || f.IsBitfield()
	}
	if !hasPacking {
		if hasBitfield {
			// cc's bit-field allocation is not gcc's everywhere:
			// struct { char c; unsigned a : 4; } has size 4 in gcc's
			// binary, 8 in cc, and sizeof != 4 was proven.
			return gccBitfieldLayoutMatches(t, fields, aligns, ok)
		}
		// No packing and no bit-field inside: cc's layout is gcc's.
		return int64(max(t.Align(), 1)), ok
	}
	if hasBitfield {
		return 1, false // packed bit-fields: not recomputed
	}
	maxAlign := int64(1)
	off := int64(0)
	for i, f := range fields {
		if f.IsFlexibleArrayMember() {
			continue
		}
		fa := aligns[i]
		want := int64(0)
		if t.Kind() == cc.Struct {
			want = (off + fa - 1) / fa * fa
		}
		if want != f.Offset() {
			ok = false
		}
		off = max(off, want+f.Type().Size())
		maxAlign = max(maxAlign, fa)
	}
	if a := t.Attributes(); a != nil && a.Aligned() > maxAlign {
		maxAlign = a.Aligned()
	}
	if size := (off + maxAlign - 1) / maxAlign * maxAlign; size != t.Size() {
		ok = false
	}
	return maxAlign, ok
}

// rejectPragmaPack is the frontend's pragma handler: cc ignores #pragma
// pack, so a struct defined under pack(N) would get its natural layout
// while gcc packs it (pack(1): struct { char c; int i; } of size 5, i at
// 1). A pack with an alignment below 16 (which no scalar member of an
// x86 struct exceeds but long double and __int128) is rejected as
// unsupported; pack(), push and pop alone change nothing. Other pragmas
// are ignored, as cc does without a handler.
func rejectPragmaPack(toks []cc.Token) error {
	if len(toks) == 0 || toks[0].SrcStr() != "pack" {
		return nil
	}
	for _, t := range toks[1:] {
		if n, err := strconv.ParseInt(t.SrcStr(), 0, 64); err == nil && n < 16 {
			return fmt.Errorf("%v: unsupported: #pragma pack(%d): packed struct layouts are not modelled", t.Position(), n)
		}
	}
	return nil
}

// Packed members. A packed attribute on a member (int i
// __attribute__((packed)), or before its type) aligns that member to 1 in
// gcc, but cc keeps no trace of it on the field: struct { char c; int i
// __attribute__((packed)); } has size 5 in gcc's binary and 8 in cc's
// types (sizeof != 5 was proven). packedMembers finds the declarators of
// such members in the struct definitions of every unit, so that
// gccLayoutMatches treats them as packed. It walks the declaration
// specifiers of every file-scope declaration and function definition
// (where struct definitions sit) and, for struct definitions inside
// function bodies or initialisers, the walk unitUsesOf makes anyway
// (noteStructDeclaration). A packed member without a declarator (an
// anonymous struct or union member) cannot be told from its field, so it
// makes the unit unsupported.
//
// Every struct or union the units define is checked here too, not only
// those of objects and member accesses (checkLayout): cc folds sizeof,
// _Alignof and offsetof of a type into constants, so sizeof(struct u) of
// a packed struct u no object has was cc's 8, not gcc's 5, and
// sizeof(struct u) != 5 was proven. A unit defining a struct gcc lays out
// differently is unsupported, whether or not it uses it.
func (b *builder) packedMembers() map[*cc.Declarator]bool {
	if b.packedScanned {
		return b.packedDecls
	}
	b.packedScanned = true
	visit := func(n cc.Node) {
		switch n := n.(type) {
		case *cc.StructDeclaration:
			b.noteStructDeclaration(n)
		case *cc.StructOrUnionSpecifier:
			b.noteStructDefinition(n)
		case *cc.UnaryExpression:
			// enum constants, member array sizes. Not the -m32
			// __alignof__(type) rule: glibc's max_align_t (stddef.h)
			// has aligned(__alignof__(long long)) members, and every
			// -m32 unit including it would be unsupported.
			if n.Case == cc.UnaryExpressionAlignofExpr {
				b.checkAlignof(n)
			}
		}
	}
	for _, ast := range b.asts {
		for tu := ast.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
			ed := tu.ExternalDeclaration
			switch {
			case ed == nil:
			case ed.Declaration != nil:
				walkAST(ed.Declaration.DeclarationSpecifiers, visit)
				b.declarationModes(ed.Declaration, true) // ignoredattr.go
			case ed.FunctionDefinition != nil:
				walkAST(ed.FunctionDefinition.DeclarationSpecifiers, visit)
			}
		}
		b.unitUsesOf(ast) // struct definitions in bodies and initialisers
	}
	b.modeTypedefUses()
	for _, def := range b.structDefs {
		if b.layoutDiffers(def.Type()) {
			b.failAt(def, layoutDiffersMsg, def.Type())
		}
	}
	b.structDefs = nil
	return b.packedDecls
}

// noteStructDefinition records a struct or union specifier with a body
// for packedMembers' check.
func (b *builder) noteStructDefinition(n *cc.StructOrUnionSpecifier) {
	if n.StructDeclarationList != nil {
		b.structDefs = append(b.structDefs, n)
	}
}

// noteStructDeclaration records the declarators of member declaration d
// when d carries a packed attribute of its own (packedMembers).
func (b *builder) noteStructDeclaration(d *cc.StructDeclaration) {
	b.memberModes(d) // ignoredattr.go
	packed := attributesPack(d.AttributeSpecifierList)
	for l := d.SpecifierQualifierList; l != nil && !packed; l = l.SpecifierQualifierList {
		packed = attributesPack(l.AttributeSpecifierList)
	}
	if !packed {
		return
	}
	if d.StructDeclaratorList == nil {
		b.failAt(d, "unsupported: a packed anonymous member: its layout is not modelled")
	}
	if b.packedDecls == nil {
		b.packedDecls = map[*cc.Declarator]bool{}
	}
	for l := d.StructDeclaratorList; l != nil; l = l.StructDeclaratorList {
		if sd := l.StructDeclarator; sd != nil && sd.Declarator != nil {
			b.packedDecls[sd.Declarator] = true
		}
	}
}

// attributesPack reports whether an attribute list names packed.
func attributesPack(l *cc.AttributeSpecifierList) bool {
	for ; l != nil; l = l.AttributeSpecifierList {
		if l.AttributeSpecifier == nil {
			continue
		}
		for v := l.AttributeSpecifier.AttributeValueList; v != nil; v = v.AttributeValueList {
			if av := v.AttributeValue; av != nil {
				if name := av.Token.SrcStr(); name == "packed" || name == "__packed__" {
					return true
				}
			}
		}
	}
	return false
}

// checkAlignof makes the unit unsupported where gcc's alignof differs from
// the value cc folds into every enclosing constant expression (so no
// lowering of the operator alone could correct it):
//   - alignof of an expression (GNU): gcc answers the alignment of the
//     object it designates (a variable's declared alignment, which gcc
//     -m32 raises to 8 for a long long; a member's field alignment; an
//     array's element alignment), cc that of the expression's decayed
//     type: __alignof__(buf) of char buf[64] is 1 in gcc's binary and 8
//     in cc, and __alignof__(buf) != 1 was proven;
//   - GNU __alignof__(type) under ILP32 of an 8-byte integer or double
//     (under any arrays): gcc -m32 answers the preferred alignment 8,
//     _Alignof and cc the ABI's 4; __alignof__(long long) != 8 was proven.
//
// C11 _Alignof(type) and every LP64 alignof of a type are cc's values.
// The unit walk reaches function bodies and initialisers (and, for
// alignof of an expression, file-scope declaration specifiers), not the
// declarators of declarations without initialisers (typedef char
// t[__alignof__(long long)]) nor, for the -m32 rule, file-scope enum
// constants and aligned attributes of members: a known gap.
func (b *builder) checkAlignof(x *cc.UnaryExpression) {
	switch x.Case {
	case cc.UnaryExpressionAlignofExpr:
		b.failAt(x, "unsupported: alignof of an expression (gcc answers the alignment of the object, not of its type)")
	case cc.UnaryExpressionAlignofType:
		if b.model != ILP32 || x.TypeName == nil || x.Token.SrcStr() == "_Alignof" {
			return
		}
		t := x.TypeName.Type()
		for t != nil && t.Kind() == cc.Array {
			t = t.(*cc.ArrayType).Elem()
		}
		if t != nil && t.Size() == 8 && (cc.IsIntegerType(t) || cc.IsFloatingPointType(t)) {
			b.failAt(x, "unsupported: __alignof__ of an 8-byte scalar with -m32 (gcc answers its preferred alignment 8, not the ABI's 4)")
		}
	}
}

// gccBitfieldLayoutMatches recomputes the layout of an unpacked struct or
// union with bit-fields by gcc's x86 rules (PCC_BITFIELD_TYPE_MATTERS,
// gcc's stor-layout.c place_field) and reports gcc's alignment of t and
// whether every member's bit position and the size are cc's. A bit-field
// sits at the next free bit unless it would span more units of its type's
// alignment than its type has, then at the next such unit; a zero-width
// bit-field moves to the next unit of its type's alignment; named
// bit-fields raise the aggregate's alignment to their type's (unnamed
// ones do not); other members start at the next byte their alignment
// allows. aligns are gcc's alignments of the members' types
// (gccLayoutMatches). A member this does not model (an aligned attribute
// on the member itself) shows as a mismatch: unsupported, never wrong.
func gccBitfieldLayoutMatches(t cc.Type, fields []*cc.Field, aligns []int64, ok bool) (int64, bool) {
	isUnion := t.Kind() == cc.Union
	maxAlign := int64(1)
	end := int64(0) // first free bit
	for i, f := range fields {
		ta := aligns[i] * 8
		pos := int64(0)
		switch {
		case f.IsFlexibleArrayMember():
			if !isUnion {
				pos = (end + ta - 1) / ta * ta
			}
			if f.Offset()*8 != pos {
				ok = false
			}
			maxAlign = max(maxAlign, aligns[i])
			continue
		case !f.IsBitfield():
			if !isUnion {
				pos = (end + ta - 1) / ta * ta
			}
			if f.Offset()*8 != pos {
				ok = false
			}
			end = max(end, pos+f.Type().Size()*8)
			maxAlign = max(maxAlign, aligns[i])
			continue
		}
		w := f.ValueBits()
		if w == 0 {
			if !isUnion {
				end = (end + ta - 1) / ta * ta
			}
			continue
		}
		if !isUnion {
			pos = end
			// excess_unit_span: the units of ta the field touches
			// from the start of the unit it begins in.
			if (pos%ta+w+ta-1)/ta > f.Type().Size()*8/ta {
				pos = (pos + ta - 1) / ta * ta
			}
		}
		if f.Offset()*8+int64(f.OffsetBits()) != pos {
			ok = false
		}
		end = max(end, pos+w)
		if f.Name() != "" {
			maxAlign = max(maxAlign, aligns[i])
		}
	}
	if a := t.Attributes(); a != nil && a.Aligned() > maxAlign {
		maxAlign = a.Aligned()
	}
	size := ((end+7)/8 + maxAlign - 1) / maxAlign * maxAlign
	if size != t.Size() || maxAlign != int64(max(t.Align(), 1)) {
		ok = false
	}
	return maxAlign, ok
}

// checkWideBitfieldOperand makes the unit unsupported where an operand of
// +, -, *, << or unary - or ~ (op) is a bit-field of a type wider than int
// that is at least as wide as int and narrower than its type (unsigned
// long long a : 40). gcc computes such operations in the bit-field's own
// width: x.a + 1 is 0 for x.a == 0xffffffffff and x.a << 1 drops bit 39,
// while the IR computes in the declared type (x.a + 1 == 2^40: (x.a << 1)
// != 0 was proven). Narrower bit-fields promote to int in gcc too; the
// other operators cannot carry a w-bit value past w bits; a compound
// assignment or ++ stores back into the field, which wraps anyway.
func (b *builder) checkWideBitfieldOperand(op cc.Node, e cc.ExpressionNode) {
	e = stripParens(e)
	pe, ok := e.(*cc.PostfixExpression)
	if !ok || pe.Case != cc.PostfixExpressionSelect && pe.Case != cc.PostfixExpressionPSelect {
		return
	}
	f := pe.Field()
	if f == nil || !f.IsBitfield() {
		return
	}
	if size := f.Type().Size(); size > 4 && f.ValueBits() >= 32 && f.ValueBits() < size*8 {
		b.failAt(op, "unsupported: arithmetic on a %d-bit bit-field of a wider type (gcc computes it in %d bits)", f.ValueBits(), f.ValueBits())
	}
}

// checkSizeofZeroElems makes the unit unsupported at sizeof of an array
// whose elements have size 0 (GNU empty structs): gcc answers 0, cc -1,
// folded into every enclosing constant (sizeof(struct e[3]) != 0 was
// proven). Objects and struct definitions of such arrays are caught by
// the layout check (gccLayoutMatches); this is the sizeof that names no
// object. In the unit walk: bodies and initialisers, and the declarations
// it skips (array sizes, enumerators, bit-field widths fold sizeof too).
func (b *builder) checkSizeofZeroElems(x *cc.UnaryExpression) {
	var t cc.Type
	switch x.Case {
	case cc.UnaryExpressionSizeofType:
		if x.TypeName != nil {
			t = x.TypeName.Type()
		}
	case cc.UnaryExpressionSizeofExpr:
		if x.UnaryExpression != nil {
			t = x.UnaryExpression.Type()
			if t != nil {
				t = t.Undecay()
			}
		}
	default:
		return
	}
	for i := 0; t != nil && i < 64; i++ {
		at, ok := t.(*cc.ArrayType)
		if !ok {
			return
		}
		if at.Elem() != nil && at.Elem().Size() == 0 && at.Len() > 0 {
			b.failAt(x, "unsupported: sizeof of an array of elements of size 0 (0 in gcc, not in cc)")
		}
		t = at.Elem()
	}
}
