package cfg

import (
	"modernc.org/cc/v4"
)

// Join-all loops. main's code often starts N threads into an array of
// handles and later joins them all:
//
//	for (i = A; i < B; i++) pthread_create(&tid[i], attr, f, arg);
//	... (statements that never name tid and never jump)
//	for (j = A; j < B; j++) pthread_join(tid[j], ret);
//
// When main gets past the second loop, every thread the first loop's
// spawn started has been joined. The interference engine cannot see this
// from the IR (the handles are one array, the loops are cycles), so the
// frontend recognizes the shape in main's own body and records it as a
// JoinAll: the spawn location and a Skip emitted right after the join
// loop. The claim "at Done, every thread started at Spawn before has
// terminated" holds when all of these hold (each is checked below):
//
//   - the code is main's own body (not an inlined, shared or summarized
//     function: main runs once and nothing else runs this code, so only
//     this loop's iterations start threads at Spawn);
//   - tid is an automatic array of main named nowhere else in main than
//     in the two loop calls, so nothing else writes its slots (its address
//     reaches pthread_create only, which writes the new id; no thread can
//     name main's local);
//   - both loops have the same variable type, the same start A and
//     bound B (integer constants, or one local register of main never
//     written in the two loops or between them and whose address is never
//     taken), the condition "<" or "<=", and an increment by one; the
//     counter is not written in either body: the join loop visits exactly
//     the slots the create loop wrote, each slot once, so it waits for each
//     thread the create loop started (pthread_create is assumed to succeed,
//     cfg/doc.go);
//   - the create body holds exactly one spawn, pthread_create(&tid[i], ...)
//     as a statement of its own, and the join body exactly one
//     pthread_join(tid[j], ...) statement; neither body nor the statements
//     between hold a jump (break, continue, return, goto) or a label, so
//     every time main is past the join loop it ran the create loop to the
//     end, then the statements between, then the join loop to the end
//     (exit and abort end main: no Done then).
//
// Anything else is lowered without a JoinAll: today's behaviour.
// Options.UnsoundJoinAllBounds drops the bounds comparison (oracle
// mutation tests only).

// JoinAll records a join-all loop of main (see joinall.go): when main is
// at Done, every thread started by main at Spawn before has terminated.
type JoinAll struct {
	Spawn, Done *Loc
}

// joinAllItems lowers items (a block's items) and records the join-all
// loops among them (a Done skip right after each matching join loop).
func (b *builder) joinAllItems(items []*cc.BlockItem) {
	pending := map[int][]*Loc{} // join loop item -> the spawns it joins all of
	for k, it := range items {
		jk := -1
		if b.joinAllScope() {
			jk = b.matchJoinAll(items, k)
		}
		before := len(b.spawns)
		b.blockItem(it)
		if jk >= 0 && len(b.spawns) == before+1 {
			pending[jk] = append(pending[jk], b.spawns[before].loc)
		}
		if spawns := pending[k]; len(spawns) > 0 && b.cur != nil {
			done := b.emit(&Skip{})
			for _, sp := range spawns {
				b.prog.JoinAlls = append(b.prog.JoinAlls, JoinAll{Spawn: sp, Done: done})
			}
		}
	}
}

// joinAllScope reports whether the builder is in main's own body.
func (b *builder) joinAllScope() bool {
	fr := b.fr
	return b.tmpl != nil && b.tmpl.ID == 0 && fr != nil && fr.parent == nil && fr.generic == nil &&
		fr.fn != nil && fr.fn.Declarator != nil && fr.fn.Declarator.Name() == "main"
}

// countedLoop is "for (v = A; v < B; v++) body" (or <=, ++v, v += 1).
type countedLoop struct {
	v          *cc.Declarator
	start, end cc.ExpressionNode
	le         bool
	body       *cc.Statement
}

// matchJoinAll returns the index of the join loop matching the create
// loop items[k], or -1.
func (b *builder) matchJoinAll(items []*cc.BlockItem, k int) int {
	create := forLoopOf(items[k])
	if create == nil {
		return -1
	}
	call := singleCallStmt(create.body, "pthread_create")
	if call == nil {
		return -1
	}
	args := argList(call.ArgumentExpressionList)
	if len(args) < 1 {
		return -1
	}
	tid := addrOfSlot(args[0], create.v)
	if tid == nil || !b.localArrayOfMain(tid) {
		return -1
	}
	for _, a := range args[1:] {
		if mentionsDecl(a, tid) {
			return -1
		}
	}
	if writesVar(create.body, create.v) || hasJumpOrLabel(create.body) || countMentions(create.body, tid) != 1 {
		return -1
	}
	for j := k + 1; j < len(items); j++ {
		if join := forLoopOf(items[j]); join != nil {
			jc := singleCallStmt(join.body, "pthread_join")
			if jc != nil {
				jargs := argList(jc.ArgumentExpressionList)
				if len(jargs) >= 1 && slotOf(jargs[0], join.v) == tid {
					if !b.sameCounting(create, join, items[k:j+1]) || writesVar(join.body, join.v) || hasJumpOrLabel(join.body) || countMentions(join.body, tid) != 1 {
						return -1
					}
					return j
				}
			}
		}
		if mentionsItem(items[j], tid) || hasJumpOrLabel(items[j]) {
			return -1
		}
	}
	return -1
}

// localArrayOfMain reports whether d is an automatic array of main named
// nowhere in main's body but in the two loops (checked by the caller
// counting mentions: here, the whole body must mention it exactly twice
// outside its declaration).
func (b *builder) localArrayOfMain(d *cc.Declarator) bool {
	if d.Type() == nil || d.Type().Kind() != cc.Array || d.IsParam() || d.IsStatic() || d.IsExtern() || d.StorageDuration() != cc.Automatic {
		return false
	}
	return countMentions(b.fr.fn.CompoundStatement, d) == 2
}

// sameCounting reports whether the two loops count over the same values:
// same variable type, start, bound and comparison (see joinall.go);
// region is the create loop, the items between and the join loop.
func (b *builder) sameCounting(c, j *countedLoop, region []*cc.BlockItem) bool {
	if b.unsoundJoinAllBounds {
		return true
	}
	ct, jt := c.v.Type(), j.v.Type()
	if ct == nil || jt == nil || !cc.IsIntegerType(ct) || ct.String() != jt.String() || ct.Size() != jt.Size() || c.le != j.le {
		return false
	}
	return b.sameBound(c.start, j.start, region) && b.sameBound(c.end, j.end, region)
}

// sameBound: both integer constants of one value, or both the same local
// register of main, not written in region and never address-taken.
func (b *builder) sameBound(x, y cc.ExpressionNode, region []*cc.BlockItem) bool {
	if vx, ok := intConst(x); ok {
		vy, ok := intConst(y)
		return ok && vx == vy
	}
	dx, dy := identDecl(x), identDecl(y)
	if dx == nil || dx != dy || dx.AddressTaken() || b.nameAddrTaken(dx.Name()) || dx.StorageDuration() != cc.Automatic || dx.IsParam() {
		return false
	}
	for _, it := range region {
		if writesVar(it, dx) {
			return false
		}
	}
	return true
}

func intConst(e cc.ExpressionNode) (int64, bool) {
	if e == nil {
		return 0, false
	}
	switch v := e.Value().(type) {
	case cc.Int64Value:
		return int64(v), true
	case cc.UInt64Value:
		if int64(v) >= 0 {
			return int64(v), true
		}
	}
	return 0, false
}

// forLoopOf matches a block item "for (v = A; v < B; v++) body".
func forLoopOf(it *cc.BlockItem) *countedLoop {
	if it == nil || it.Case != cc.BlockItemStmt || it.Statement == nil || it.Statement.Case != cc.StatementIteration {
		return nil
	}
	is := it.Statement.IterationStatement
	l := &countedLoop{body: is.Statement}
	var cond, post cc.ExpressionNode
	switch is.Case {
	case cc.IterationStatementFor:
		a, ok := stripList(is.ExpressionList).(*cc.AssignmentExpression)
		if !ok || a.Case != cc.AssignmentExpressionAssign {
			return nil
		}
		l.v = identDecl(a.UnaryExpression)
		l.start = a.AssignmentExpression
		cond, post = is.ExpressionList2, is.ExpressionList3
	case cc.IterationStatementForDecl:
		d := is.Declaration
		if d == nil || d.InitDeclaratorList == nil || d.InitDeclaratorList.InitDeclaratorList != nil {
			return nil
		}
		id := d.InitDeclaratorList.InitDeclarator
		if id == nil || id.Initializer == nil || id.Initializer.Case != cc.InitializerExpr {
			return nil
		}
		l.v = id.Declarator
		l.start = id.Initializer.AssignmentExpression
		cond, post = is.ExpressionList, is.ExpressionList2
	default:
		return nil
	}
	if l.v == nil || l.v.StorageDuration() != cc.Automatic || l.v.AddressTaken() {
		return nil
	}
	r, ok := stripList(cond).(*cc.RelationalExpression)
	if !ok || (r.Case != cc.RelationalExpressionLt && r.Case != cc.RelationalExpressionLeq) || identDecl(r.RelationalExpression) != l.v {
		return nil
	}
	l.le = r.Case == cc.RelationalExpressionLeq
	l.end = r.ShiftExpression
	if !incrementsByOne(stripList(post), l.v) {
		return nil
	}
	return l
}

// incrementsByOne: v++, ++v, v += 1.
func incrementsByOne(e cc.ExpressionNode, v *cc.Declarator) bool {
	switch x := e.(type) {
	case *cc.PostfixExpression:
		return x.Case == cc.PostfixExpressionInc && identDecl(x.PostfixExpression) == v
	case *cc.UnaryExpression:
		return x.Case == cc.UnaryExpressionInc && identDecl(x.UnaryExpression) == v
	case *cc.AssignmentExpression:
		c, ok := intConst(x.AssignmentExpression)
		return x.Case == cc.AssignmentExpressionAdd && identDecl(x.UnaryExpression) == v && ok && c == 1
	}
	return false
}

// stripList returns the one expression of a single-element list.
func stripList(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		l, ok := e.(*cc.ExpressionList)
		if !ok || l.ExpressionList != nil {
			return e
		}
		e = l.AssignmentExpression
	}
}

// identDecl returns the declarator an identifier expression names.
func identDecl(e cc.ExpressionNode) *cc.Declarator {
	p := unparen(e)
	if p == nil || p.Case != cc.PrimaryExpressionIdent {
		return nil
	}
	d, _ := p.ResolvedTo().(*cc.Declarator)
	return d
}

// singleCallStmt returns the call of name that is the body (or the only
// call statement of name among a compound body's statements, every other
// item holding no call of name), or nil.
func singleCallStmt(body *cc.Statement, name string) *cc.PostfixExpression {
	var stmts []*cc.Statement
	switch {
	case body == nil:
		return nil
	case body.Case == cc.StatementCompound:
		for l := body.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
			if it := l.BlockItem; it != nil && it.Case == cc.BlockItemStmt {
				stmts = append(stmts, it.Statement)
			}
		}
	default:
		stmts = []*cc.Statement{body}
	}
	var found *cc.PostfixExpression
	for _, s := range stmts {
		if s.Case == cc.StatementExpr && s.ExpressionStatement != nil {
			if c, ok := stripList(s.ExpressionStatement.ExpressionList).(*cc.PostfixExpression); ok && c.Case == cc.PostfixExpressionCall && calleeName(c.PostfixExpression) == name {
				if found != nil {
					return nil
				}
				found = c
			}
		}
	}
	if found == nil || countCalls(body, name) != 1 {
		return nil
	}
	return found
}

func countCalls(n cc.Node, name string) int {
	k := 0
	walkAST(n, func(m cc.Node) {
		if c, ok := m.(*cc.PostfixExpression); ok && c.Case == cc.PostfixExpressionCall && calleeName(c.PostfixExpression) == name {
			k++
		}
	})
	return k
}

// addrOfSlot matches &tid[v] and returns tid's declarator.
func addrOfSlot(e cc.ExpressionNode, v *cc.Declarator) *cc.Declarator {
	u, ok := stripParens(e).(*cc.UnaryExpression)
	if !ok || u.Case != cc.UnaryExpressionAddrof {
		return nil
	}
	return slotOf(u.CastExpression, v)
}

// slotOf matches tid[v] (tid an array) and returns tid's declarator.
func slotOf(e cc.ExpressionNode, v *cc.Declarator) *cc.Declarator {
	x, ok := stripParens(e).(*cc.PostfixExpression)
	if !ok || x.Case != cc.PostfixExpressionIndex || identDecl(stripList(x.ExpressionList)) != v {
		return nil
	}
	return identDecl(x.PostfixExpression)
}

// stripParens removes parentheses and single-element lists.
func stripParens(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		e = stripList(e)
		p, ok := e.(*cc.PrimaryExpression)
		if !ok || p.Case != cc.PrimaryExpressionExpr {
			return e
		}
		e = p.ExpressionList
	}
}

// countMentions counts the identifier expressions naming d below n.
func countMentions(n cc.Node, d *cc.Declarator) int {
	k := 0
	walkAST(n, func(m cc.Node) {
		if p, ok := m.(*cc.PrimaryExpression); ok && p.Case == cc.PrimaryExpressionIdent && p.ResolvedTo() == cc.Node(d) {
			k++
		}
	})
	return k
}

func mentionsDecl(n cc.Node, d *cc.Declarator) bool { return countMentions(n, d) > 0 }

func mentionsItem(it *cc.BlockItem, d *cc.Declarator) bool { return mentionsDecl(it, d) }

// writesVar reports whether n assigns, increments or decrements d, or
// takes its address.
func writesVar(n cc.Node, d *cc.Declarator) bool {
	found := false
	walkAST(n, func(m cc.Node) {
		switch x := m.(type) {
		case *cc.AssignmentExpression:
			if x.Case != cc.AssignmentExpressionCond && identDecl(x.UnaryExpression) == d {
				found = true
			}
		case *cc.PostfixExpression:
			if (x.Case == cc.PostfixExpressionInc || x.Case == cc.PostfixExpressionDec) && identDecl(x.PostfixExpression) == d {
				found = true
			}
		case *cc.UnaryExpression:
			switch x.Case {
			case cc.UnaryExpressionInc, cc.UnaryExpressionDec:
				found = found || identDecl(x.UnaryExpression) == d
			case cc.UnaryExpressionAddrof:
				found = found || identDecl(x.CastExpression) == d
			}
		}
	})
	return found
}

// hasJumpOrLabel reports whether n holds a break, continue, return, goto
// or a label (case labels included).
func hasJumpOrLabel(n cc.Node) bool {
	found := false
	walkAST(n, func(m cc.Node) {
		switch m.(type) {
		case *cc.JumpStatement, *cc.LabeledStatement:
			found = true
		}
	})
	return found
}
