package cfg

import (
	"sort"
	"strings"

	"modernc.org/cc/v4"
)

// Inline assembly.
//
// chorus does not read the assembly: it models what the statement's GCC
// constraints allow it to do, which is also all the compiler assumes
// (GCC: an asm that accesses memory other than its operands must say
// "memory"). chorus used to lower every asm to nothing and proved an
// assert that an asm output breaks (fixture asm_operands.c).
//   - A template that is empty, or whose instructions only order memory
//     accesses or wait (nop, pause, mfence, dmb ish, ...: orderingOnly),
//     changes no C-visible state whatever it clobbers: asm("" :::
//     "memory"), the compiler barrier, and a spin loop's pause are Skips.
//     Under sequential consistency ordering instructions have no effect.
//   - Input operands are evaluated (they are read).
//   - Every output operand ("=r"(x), "+m"(*p), ...) gets any value.
//   - With a "memory" clobber the statement may also read and write any
//     memory its inputs' pointers or the address-taken globals reach, and
//     call what they reach: the unknown external model (call.go), with
//     the input values as its arguments.
//   - A global variable the template names (movl $1, g(%rip)) gets any
//     value: it is memory the statement reaches by name, which neither the
//     operands nor the unknown external model cover. A template naming a
//     defined function (call f) is rejected: f's effects would be missed.
//   - asm goto (it may jump to C labels) is rejected with an error.
// An asm that implements a lock or an atomic operation is not seen as
// one: no mutual exclusion or atomicity follows from it (more behaviours).

// asm lowers an inline assembly statement (the model above).
func (b *builder) asm(a *cc.AsmStatement) {
	x := a.Asm
	if x == nil {
		b.emit(&Skip{})
		return
	}
	for q := x.AsmQualifierList; q != nil; q = q.AsmQualifierList {
		if q.AsmQualifier != nil && q.AsmQualifier.Case == cc.AsmQualifierGoto {
			b.failAt(a, "unsupported: asm goto")
		}
	}
	// Sections after the template: outputs, inputs, clobbers (labels).
	var sections [][]cc.ExpressionNode
	for l := x.AsmArgList; l != nil; l = l.AsmArgList {
		var ops []cc.ExpressionNode
		for e := l.AsmExpressionList; e != nil; e = e.AsmExpressionList {
			ops = append(ops, e.AssignmentExpression)
		}
		sections = append(sections, ops)
	}
	section := func(i int) []cc.ExpressionNode {
		if i < len(sections) {
			return sections[i]
		}
		return nil
	}
	if orderingOnly(asmString(x.Token3.SrcStr())) && len(section(0)) == 0 {
		b.emit(&Skip{})
		return
	}
	var inputs []Expr
	for _, op := range section(1) {
		if e := asmOperand(op); e != nil {
			inputs = append(inputs, b.rvalue(e))
		}
	}
	memory := false
	for _, c := range section(2) {
		if strings.TrimSpace(asmString(nodeSrc(c))) == "memory" {
			memory = true
		}
	}
	if memory {
		uc := &unknownCall{name: "<asm>", pos: b.pos, kind: unknownExternal}
		b.assume(b.pos, "asm: inline assembly with a \"memory\" clobber: may write what its inputs and the address-taken globals reach")
		uc.args = presentArgs(inputs)
		b.callbackSpawns(uc)
		b.addUnknownCall(uc)
	} else {
		b.emit(&Skip{})
	}
	b.asmNamedGlobals(asmString(x.Token3.SrcStr()))
	for _, op := range section(0) {
		e := asmOperand(op)
		if e == nil {
			b.failAt(op, "unsupported asm operand %s", nodeSrc(op))
		}
		lv := b.lvalue(e)
		b.store(lv, b.nondet(lv.ctype))
	}
}

// asmOperand returns the C expression of an operand: cc parses
// "constraint"(expr) as a call of the constraint string.
func asmOperand(op cc.ExpressionNode) cc.ExpressionNode {
	p, ok := op.(*cc.PostfixExpression)
	if !ok || p.Case != cc.PostfixExpressionCall || p.ArgumentExpressionList == nil || p.ArgumentExpressionList.ArgumentExpressionList != nil {
		return nil
	}
	return p.ArgumentExpressionList.AssignmentExpression
}

// asmString is the text of a string literal token's source (adjacent
// literals concatenated, escapes left as written): enough to tell an
// empty template or the "memory" clobber.
func asmString(src string) string {
	var sb strings.Builder
	for {
		i := strings.IndexByte(src, '"')
		if i < 0 {
			return sb.String()
		}
		j := strings.IndexByte(src[i+1:], '"')
		if j < 0 {
			return sb.String()
		}
		sb.WriteString(src[i+1 : i+1+j])
		src = src[i+2+j:]
	}
}

// asmNamedGlobals havocs every global variable whose name is a word of
// the template, and rejects a template naming a defined function.
func (b *builder) asmNamedGlobals(template string) {
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(template, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		words[w] = true
	}
	for name, fd := range b.funcs {
		if words[fd.Declarator.Name()] {
			b.fail("unsupported: inline assembly naming function %s", name)
		}
	}
	var names []string
	for name, decls := range b.globalDecls {
		if len(decls) > 0 && words[decls[0].Name()] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		lv := b.storageLval(b.globalStorage(b.globalDecls[name][0]))
		b.store(lv, b.nondet(lv.ctype))
	}
}

// orderingOnly reports whether an asm template's instructions (separated
// by newlines or semicolons) are all ones that change no memory and no
// register the C code sees: fences, pauses, hints.
func orderingOnly(template string) bool {
	t := strings.NewReplacer(`\n`, "\n", `\t`, " ", ";", "\n").Replace(template)
	for _, ins := range strings.Split(t, "\n") {
		switch strings.Join(strings.Fields(ins), " ") {
		case "", "nop", "pause", "rep", "rep nop", "mfence", "lfence", "sfence",
			"dmb ish", "dmb ishld", "dmb ishst", "dmb sy", "dsb sy", "dsb ish", "isb", "yield", "wfe", "sev", "sync", "lwsync", "isync", "fence", "fence rw,rw":
		default:
			return false
		}
	}
	return true
}
