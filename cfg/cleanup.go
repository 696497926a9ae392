package cfg

import (
	"go/token"
	"slices"
	"strings"

	"modernc.org/cc/v4"
)

// GCC's __attribute__((cleanup(f))) on an automatic variable v makes the
// compiler call f(&v) whenever v goes out of scope: at the end of its
// block when control falls through, and on every break, continue, goto and
// return that leaves the block (for `return e`, after e is evaluated),
// innermost and latest-declared first. Soundness needs every such call in
// the IR: a cleanup that writes memory, unlocks a mutex or asserts is code
// that runs. The builder keeps, per frame, the cleanup variables in scope
// (cleanupScopes.active, innermost last) and emits the calls on each exit
// edge as ordinary calls (inlined or shared like any call of f; f without
// a body gets the unknown external model). The reference interpreter
// (cfg/interp) runs the lowered IR, so it executes the same calls.
//
// Not run, as with GCC: exit, abort, pthread_exit and longjmp leave scopes
// without cleanups (only unwinding with -fexceptions runs them; chorus
// lowers exit and pthread_exit as paths that end, and longjmp as a jump
// that passes no block end). A static or extern local's cleanup attribute
// is ignored, as GCC ignores it (with a warning).
//
// Rejected with an error at the jump: a goto or switch case label that
// jumps into the scope of a cleanup variable past its declaration (GCC
// accepts it and later calls f on an uninitialised variable), a cleanup
// function that chorus models as a builtin or special library function,
// and an aggregate-valued statement expression whose block has cleanup
// variables (its value is read after the cleanups ran). Computed goto is
// rejected everywhere (jump).

// cleanupVar is a cleanup variable in scope.
type cleanupVar struct {
	fn   string             // linker name of the cleanup function
	addr Expr               // the variable's address, f's argument
	attr *cc.AttributeValue // for positions
}

// cleanupScopes is a frame's cleanup state.
type cleanupScopes struct {
	active  []*cleanupVar            // in scope now, innermost last
	brk     []int                    // len(active) at each break target (parallel to frame.brk)
	cont    []int                    // len(active) at each continue target (frame.cont)
	labels  map[string][]*cleanupVar // active at each label lowered so far
	pending map[string][]pendingGoto // gotos to labels not lowered yet
}

// pendingGoto is a forward goto. Which cleanups it runs depends on the
// label's scopes, known when the label is lowered: a goto that leaves
// cleanup scopes keeps its frontier (from) unlinked until then.
type pendingGoto struct {
	from   []*Loc        // nil: already linked (no cleanup variable was in scope)
	active []*cleanupVar // in scope at the goto
	pos    token.Position
}

// cleanupAttrs returns the cleanup attributes that apply to one declarator
// of a local declaration: those of the declaration's specifiers and
// trailing attributes (all its declarators) and those of the declarator
// itself. Not those of a parameter in the declarator or of a member in a
// struct or union the specifiers define (GCC ignores them), nor those of
// a declaration nested in a statement expression (in typeof, not
// evaluated; in an array size: its own declaration).
func cleanupAttrs(d *cc.Declaration, decl *cc.Declarator, declAttrs *cc.AttributeSpecifierList) []*cc.AttributeValue {
	return attributesNamed([]string{"cleanup", "__cleanup__"}, d.DeclarationSpecifiers, d.AttributeSpecifierList, decl, declAttrs)
}

// attributesNamed returns the attribute values with one of the names in
// the nodes, in walk order, but for those of nested member lists,
// parameter lists and statements (which belong to other declarations).
func attributesNamed(names []string, nodes ...cc.Node) []*cc.AttributeValue {
	var found []*cc.AttributeValue
	nested := map[*cc.AttributeValue]bool{}
	markNested := func(n cc.Node) {
		if av, ok := n.(*cc.AttributeValue); ok {
			nested[av] = true
		}
	}
	find := func(n cc.Node) {
		switch x := n.(type) {
		case *cc.ParameterTypeList, *cc.StructDeclarationList, *cc.CompoundStatement:
			walkAST(x, markNested) // parents are visited first
		case *cc.AttributeValue:
			if !nested[x] && slices.Contains(names, x.Token.SrcStr()) {
				found = append(found, x)
			}
		}
	}
	for _, n := range nodes {
		walkAST(n, find)
	}
	return found
}

// cleanupFunc resolves the function a cleanup attribute names (its linker
// name) and rejects what the cleanup call cannot model exactly.
func (b *builder) cleanupFunc(av *cc.AttributeValue) string {
	args := av.ArgumentExpressionList
	if av.Case != cc.AttributeValueExpr || args == nil || args.ArgumentExpressionList != nil {
		b.failAt(av, "cleanup attribute needs one function name")
	}
	name := b.calleeName(args.AssignmentExpression)
	if name == "" {
		b.failAt(av, "cleanup attribute's argument is not a function: %s", nodeSrc(args.AssignmentExpression))
	}
	if b.funcs[name] == nil && !cleanupExternalOK(name) || isBuiltinName(name) || isNondet(name) {
		// The call is lowered without a C call expression (cleanupCall);
		// the builtins and special library models need one.
		b.failAt(av, "unsupported: cleanup function %s is a library function chorus models specially", name)
	}
	return name
}

// cleanupExternalOK reports whether a cleanup function without a body
// gets the plain unknown external model (unknownVals' generic path).
func cleanupExternalOK(name string) bool {
	switch {
	case strings.HasPrefix(name, "__builtin_"), strings.HasPrefix(name, "__VERIFIER_"), strings.HasPrefix(name, "__CPROVER_"),
		pureExternals[name], setjmpNames[name], longjmpNames[name], cancelMachinery[name]:
		return false
	}
	return externalModel(name) == unknownExternal
}

// pushCleanup brings a cleanup variable into scope; s is its storage (an
// object: its address is taken).
func (b *builder) pushCleanup(av *cc.AttributeValue, fn string, s *storage) {
	cs := &b.fr.cleanups
	cs.active = append(cs.active, &cleanupVar{fn: fn, addr: b.objAddr(s.obj), attr: av})
}

// cleanupMark is the number of cleanup variables in scope, for
// closeCleanups.
func (b *builder) cleanupMark() int {
	if b.fr == nil {
		return 0
	}
	return len(b.fr.cleanups.active)
}

// runCleanups emits, on the current frontier, the cleanup calls of vars,
// last first. A dead frontier runs nothing.
func (b *builder) runCleanups(vars []*cleanupVar) {
	for i := len(vars) - 1; i >= 0 && len(b.cur) > 0; i-- {
		b.cleanupCall(vars[i])
	}
}

// closeCleanups ends the scopes opened since mark: control falling
// through runs their cleanups.
func (b *builder) closeCleanups(mark int) {
	if b.cleanupMark() <= mark {
		return
	}
	cs := &b.fr.cleanups
	b.runCleanups(cs.active[mark:])
	cs.active = cs.active[:mark]
}

// leaveTo runs the cleanups a jump to a target with mark variables in
// scope passes (break, continue: the target's scopes enclose the jump's).
func (b *builder) leaveTo(mark int) {
	b.runCleanups(b.fr.cleanups.active[mark:])
}

// cleanupCall emits the call f(&v). The position is the attribute's.
func (b *builder) cleanupCall(cv *cleanupVar) {
	savePos := b.pos
	b.setPos(cv.attr)
	vals := []Expr{cv.addr}
	if fd := b.funcs[cv.fn]; fd != nil {
		b.inline(fd, nil, vals)
	} else {
		b.unknownVals(cv.fn, nil, vals)
	}
	b.pos = savePos
}

// commonPrefix is the number of leading cleanup variables a and b share.
func commonPrefix(a, b []*cleanupVar) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// gotoCleanups lowers `goto name` to l from the current frontier: it runs
// the cleanups of the scopes the goto leaves (those in scope at the goto
// and not at the label), now for a label already lowered, else when the
// label is (labelCleanups).
func (b *builder) gotoCleanups(name string, l *Loc) {
	cs := &b.fr.cleanups
	if at, ok := cs.labels[name]; ok {
		c := commonPrefix(cs.active, at)
		if c < len(at) {
			b.fail("unsupported: goto %s jumps into the scope of a variable with a cleanup attribute", name)
		}
		b.runCleanups(cs.active[c:])
		b.jumpTo(l)
		return
	}
	p := pendingGoto{active: append([]*cleanupVar(nil), cs.active...), pos: b.pos}
	if len(cs.active) == 0 {
		b.jumpTo(l)
	} else {
		p.from = b.cur
		b.cur = nil
	}
	if cs.pending == nil {
		cs.pending = map[string][]pendingGoto{}
	}
	cs.pending[name] = append(cs.pending[name], p)
}

// labelCleanups records the cleanup variables in scope at label name and
// links the pending gotos to it through the cleanups they run.
func (b *builder) labelCleanups(name string, l *Loc) {
	cs := &b.fr.cleanups
	if cs.labels == nil {
		cs.labels = map[string][]*cleanupVar{}
	}
	at := append([]*cleanupVar(nil), cs.active...)
	cs.labels[name] = at
	gotos := cs.pending[name]
	delete(cs.pending, name)
	save, savePos := b.cur, b.pos
	for _, p := range gotos {
		c := commonPrefix(p.active, at)
		if c < len(at) {
			b.pos = p.pos
			b.fail("unsupported: goto %s jumps into the scope of a variable with a cleanup attribute", name)
		}
		if p.from == nil {
			continue // linked at the goto: it left no cleanup scope
		}
		b.cur = p.from
		b.runCleanups(p.active[c:])
		b.jumpTo(l)
	}
	b.cur, b.pos = save, savePos
}

// checkPendingGotos fails on a goto whose label was never lowered in the
// frame (its cleanups would be dropped silently).
func (b *builder) checkPendingGotos() {
	for name, ps := range b.fr.cleanups.pending {
		for _, p := range ps {
			if p.from != nil {
				b.pos = p.pos
				b.fail("goto %s: label not found in the function", name)
			}
		}
	}
}

// checkCaseScope rejects a case label of sc that jumps past the
// declaration of a cleanup variable declared in the switch body.
func (b *builder) checkCaseScope(sc *switchCtx) {
	if b.cleanupMark() > sc.cleanups {
		b.fail("unsupported: case label jumps into the scope of a variable with a cleanup attribute")
	}
}
