package cfg

import (
	"strings"

	"modernc.org/cc/v4"
)

// Attributes cc ignores that change a type's size: mode and packed enums.
//
// The machine-mode attribute (GCC): typedef unsigned int u_int8_t
// __attribute__((__mode__(__QI__))) is a 1-byte type in gcc, which old
// glibc's <sys/types.h> spells for u_int8_t ... u_int64_t and register_t
// (and so do many SV-COMP .i files). cc ignores the attribute: the type
// stays 4 bytes, in every size, layout, conversion and constant cc
// folds, so no lowering of the uses could repair it (u_int8_t x = 255;
// x++; x != 0 was proven). Where the mode's size differs from cc's:
//   - a file-scope typedef makes every unit that names it unsupported
//     (the headers declare them, the programs rarely use them: none of
//     the corpus does);
//   - a block-scope typedef, a variable or a struct member declared so is
//     unsupported where it is declared.
// A mode of the type's own size (__SI__ on an int, __word__ on a long
// under LP64) changes nothing and is accepted. Not looked at: a mode on a
// function parameter or inside a declarator's parentheses.

// A packed enum (enum e { A, B } __attribute__((packed))) takes the fewest
// bytes that hold its values in gcc (1 here); cc ignores the attribute and
// keeps 4 (sizeof(enum e) != 1 was proven). A declaration or member
// declaration whose specifiers define an enum next to a packed attribute
// is unsupported. (cc cannot parse the attribute between enum and the tag.)

// modeBytes is the size of a GCC machine mode name (underscores trimmed),
// 0 when it is not an integer or float mode chorus knows.
func (b *builder) modeBytes(mode string) int64 {
	switch strings.Trim(mode, "_") {
	case "QI", "byte":
		return 1
	case "HI":
		return 2
	case "SI", "SF":
		return 4
	case "DI", "DF":
		return 8
	case "TI", "TF":
		return 16
	case "word", "pointer", "unwind_word":
		return int64(b.model.PtrBits() / 8)
	}
	return 0
}

// findModes returns the mode attribute values in the nodes (attributesNamed).
func findModes(nodes ...cc.Node) []*cc.AttributeValue {
	return attributesNamed([]string{"mode", "__mode__"}, nodes...)
}

// modeMismatch reports the message for declarator d declared with mode
// attribute av when gcc's size differs from cc's ("" when they agree).
func (b *builder) modeMismatch(d *cc.Declarator, av *cc.AttributeValue) string {
	mode := ""
	if args := av.ArgumentExpressionList; av.Case == cc.AttributeValueExpr && args != nil && args.AssignmentExpression != nil {
		mode = strings.TrimSpace(cc.NodeSource(args.AssignmentExpression))
	}
	want := b.modeBytes(mode)
	if d == nil || d.Type() == nil {
		return ""
	}
	got := d.Type().Size()
	switch {
	case want == 0:
		return "unsupported: " + d.Name() + " is declared with __attribute__((mode(" + mode + "))), a machine mode chorus does not know (cc ignores it)"
	case got != want:
		return "unsupported: " + d.Name() + " is declared with __attribute__((mode(" + mode + "))): " + itoa(want) + " bytes in gcc, but cc ignores the attribute (" + itoa(got) + " bytes)"
	}
	return ""
}

// declarationModes checks the mode attributes of declaration d: a
// mismatched typedef at file scope is recorded (b.modeTypedefs), anything
// else mismatched makes the unit unsupported here.
func (b *builder) declarationModes(d *cc.Declaration, fileScope bool) {
	if d == nil || d.Case != cc.DeclarationDecl {
		return
	}
	b.declarationPackedEnum(d)
	common := findModes(d.DeclarationSpecifiers, d.AttributeSpecifierList)
	for l := d.InitDeclaratorList; l != nil; l = l.InitDeclaratorList {
		id := l.InitDeclarator
		if id == nil || id.Declarator == nil {
			continue
		}
		for _, av := range append(findModes(id.Declarator, id.AttributeSpecifierList), common...) {
			msg := b.modeMismatch(id.Declarator, av)
			if msg == "" {
				continue
			}
			if fileScope && id.Declarator.IsTypename() {
				if b.modeTypedefs == nil {
					b.modeTypedefs = map[string]string{}
				}
				b.modeTypedefs[id.Declarator.Name()] = msg
				continue
			}
			b.failAt(id.Declarator, "%s", msg)
		}
	}
}

// memberModes makes the unit unsupported at a struct member declared with
// a mismatched mode attribute.
func (b *builder) memberModes(d *cc.StructDeclaration) {
	b.memberPackedEnum(d)
	common := findModes(d.SpecifierQualifierList, d.AttributeSpecifierList)
	for l := d.StructDeclaratorList; l != nil; l = l.StructDeclaratorList {
		sd := l.StructDeclarator
		if sd == nil || sd.Declarator == nil {
			continue
		}
		for _, av := range append(findModes(sd.Declarator), common...) {
			if msg := b.modeMismatch(sd.Declarator, av); msg != "" {
				b.failAt(sd.Declarator, "%s", msg)
			}
		}
	}
}

// modeTypedefUses makes the unit unsupported at the first use of a
// file-scope typedef recorded by declarationModes (a full walk, done only
// when there is one).
func (b *builder) modeTypedefUses() {
	if len(b.modeTypedefs) == 0 {
		return
	}
	visit := func(n cc.Node) {
		if ts, ok := n.(*cc.TypeSpecifier); ok && ts.Case == cc.TypeSpecifierTypeName {
			if msg, bad := b.modeTypedefs[ts.Token.SrcStr()]; bad {
				b.failAt(ts, "%s", msg)
			}
		}
	}
	for _, ast := range b.asts {
		for tu := ast.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
			if ed := tu.ExternalDeclaration; ed != nil {
				walkAST(ed, visit)
			}
		}
	}
}

// packedEnum makes the unit unsupported when the specifier list holding
// these specifiers defines an enum and names packed.
func (b *builder) packedEnum(enum *cc.EnumSpecifier, packed bool) {
	if enum != nil && packed {
		b.failAt(enum, "unsupported: a packed enum (gcc gives it the fewest bytes that hold its values; cc ignores the attribute)")
	}
}

// declarationPackedEnum checks the specifiers of a declaration.
func (b *builder) declarationPackedEnum(d *cc.Declaration) {
	var enum *cc.EnumSpecifier
	packed := attributesPack(d.AttributeSpecifierList)
	for s := d.DeclarationSpecifiers; s != nil; s = s.DeclarationSpecifiers {
		packed = specifierPackedEnum(s.AttributeSpecifierList, s.TypeQualifier, s.TypeSpecifier, &enum) || packed
	}
	b.packedEnum(enum, packed)
}

// memberPackedEnum checks the specifiers of a member declaration.
func (b *builder) memberPackedEnum(d *cc.StructDeclaration) {
	var enum *cc.EnumSpecifier
	packed := attributesPack(d.AttributeSpecifierList)
	for s := d.SpecifierQualifierList; s != nil; s = s.SpecifierQualifierList {
		packed = specifierPackedEnum(s.AttributeSpecifierList, s.TypeQualifier, s.TypeSpecifier, &enum) || packed
	}
	b.packedEnum(enum, packed)
}

// specifierPackedEnum reads one link of a specifier list: it reports
// whether the link names packed and sets *enum when it defines an enum.
func specifierPackedEnum(attrs *cc.AttributeSpecifierList, q *cc.TypeQualifier, t *cc.TypeSpecifier, enum **cc.EnumSpecifier) bool {
	if t != nil && t.EnumSpecifier != nil && t.EnumSpecifier.Case == cc.EnumSpecifierDef {
		*enum = t.EnumSpecifier
	}
	return attributesPack(attrs) || q != nil && attributesPack(q.AttributeSpecifierList)
}

// checkStringToken makes the unit unsupported at a string literal cc
// misreads: cc takes the prefix of u8"ab" for its content (the value
// 8"ab, sizeof 5 where gcc has 3; sizeof(u8"x") != 2 and u8"x"[0] != 'x'
// were proven), also inside a concatenation ("ab" u8"cd" reads ab8"cd).
// A literal cc has read right is one quoted sequence with no unescaped
// quote inside.
func (b *builder) checkStringToken(p *cc.PrimaryExpression) {
	src := p.Token.SrcStr()
	if strings.HasPrefix(src, "u8") {
		b.failAt(p, "unsupported: a u8 string literal (cc reads its prefix into the string)")
	}
	if len(src) < 2 || src[0] != '"' {
		return // wide literals are rejected where they are lowered
	}
	for i := 1; i < len(src)-1; i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			b.failAt(p, "unsupported: a u8 string literal (cc reads its prefix into the string)")
		}
	}
}

// sizeofFunctions makes the unit unsupported at sizeof of a function: GNU
// C gives a function's size as 1 (sizeof f, sizeof *fp), cc answers the
// decayed pointer's size and folds it into every enclosing constant, so
// no lowering can repair it (sizeof(*fp) != 1 was proven). cc counts the
// identifiers met inside sizeof operands (Declarator.SizeofCount): only
// when a declarator of a function or a pointer to one has been met there
// are the unit's sizeof operands walked (all of them, declarations
// included), which keeps the common unit free of the walk.
func (b *builder) sizeofFunctions() {
	suspect := false
	var scan func(s *cc.Scope)
	scan = func(s *cc.Scope) {
		for _, ns := range s.Nodes {
			for _, n := range ns {
				if d, ok := n.(*cc.Declarator); ok && d.SizeofCount() > 0 && reachesFunction(d.Type()) {
					suspect = true
					return
				}
			}
		}
		for _, c := range s.Children {
			if !suspect {
				scan(c)
			}
		}
	}
	for _, ast := range b.asts {
		if ast.Scope != nil && !suspect {
			scan(ast.Scope)
		}
	}
	if !suspect {
		return
	}
	visit := func(n cc.Node) {
		if u, ok := n.(*cc.UnaryExpression); ok && u.Case == cc.UnaryExpressionSizeofExpr && designatesFunction(u.UnaryExpression) {
			b.failAt(u, "unsupported: sizeof of a function (1 in GNU C; cc answers a pointer's size)")
		}
	}
	for _, ast := range b.asts {
		for tu := ast.TranslationUnit; tu != nil; tu = tu.TranslationUnit {
			if ed := tu.ExternalDeclaration; ed != nil {
				walkAST(ed, visit)
			}
		}
	}
}

// reachesFunction reports whether t is a function type or reaches one
// through pointers and arrays.
func reachesFunction(t cc.Type) bool {
	for i := 0; t != nil && i < 16; i++ {
		switch x := t.(type) {
		case *cc.PointerType:
			t = x.Elem()
		case *cc.ArrayType:
			t = x.Elem()
		default:
			return t.Kind() == cc.Function
		}
	}
	return false
}

// designatesFunction reports whether e (an operand of sizeof, which cc
// types as its decayed pointer) designates a function: a function's name
// or *p of a pointer to a function, in parentheses or not.
func designatesFunction(e cc.ExpressionNode) bool {
	switch x := stripParens(e).(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionIdent {
			d, ok := x.ResolvedTo().(*cc.Declarator)
			return ok && d.Type() != nil && d.Type().Kind() == cc.Function
		}
	case *cc.UnaryExpression:
		if x.Case == cc.UnaryExpressionDeref && x.CastExpression != nil {
			if p, ok := x.CastExpression.Type().Decay().(*cc.PointerType); ok {
				return p.Elem() != nil && p.Elem().Kind() == cc.Function
			}
		}
	case *cc.CastExpression:
		if x.Case == cc.CastExpressionUnary {
			return designatesFunction(x.UnaryExpression)
		}
	}
	return false
}
