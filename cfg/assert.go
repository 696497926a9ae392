package cfg

import (
	"modernc.org/cc/v4"
)

// Assertions as users write them. The assert macros of the C libraries
// expand to a test whose failing side calls a function that never
// returns:
//
//	glibc (GNU C):  ((void) sizeof ((e) ? 1 : 0), __extension__ ({ if (e) ; else __assert_fail (#e, ...); }))
//	glibc (ISO C):  ((e) ? (void) (0) : __assert_fail (#e, ...))
//	musl:           ((void)((e) || (__assert_fail(#e, ...),0)))
//	FreeBSD:        ((e) ? (void)0 : __assert(__func__, __FILE__, __LINE__, #e))
//	Bionic:         ((e) ? (void)0 : __assert2(__FILE__, __LINE__, __func__, #e))
//	macOS:          (__builtin_expect(!(e), 0) ? __assert_rtn(__func__, __FILE__, __LINE__, #e) : (void)0)
//
// and programs write "if (!(e)) abort();" (or a block that reports and
// then aborts). Each of these shapes becomes one assertion check of e,
// "assertion e" with e as the source spells it, exactly like
// __VERIFIER_assert(e): a check that holds is proven (not "unreachable"),
// one that may fail is unproven with the invariant at the site. After the
// check the thread continues assuming e, which is what the original does
// (the failing side never returns). Shapes not recognized still lower
// soundly: the failure call is a check that fails whenever reached.
//
// abort() counts as a failed assertion except in units that follow
// SV-COMP's convention (they declare reach_error or __VERIFIER_error):
// there the property is "reach_error is unreachable", and abort() only
// stops a path (assume_abort_if_not, models of blocking calls).

// assertFailArg maps the assertion-failure functions to the index of their
// stringified-expression argument (-1: none).
var assertFailArg = map[string]int{
	"__assert_fail": 0, "__assert_perror_fail": -1, "__assert": 0,
	"__assert2": 3, "__assert_rtn": 3,
}

// isFailCall reports whether e is (up to parentheses, casts to void and a
// comma list whose first operand is the call) a call of an
// assertion-failure function, or of abort when abort is an error.
func (b *builder) isFailCall(e cc.ExpressionNode) bool {
	for e != nil {
		switch x := e.(type) {
		case *cc.ExpressionList:
			e = x.AssignmentExpression // (fail(...), 0): the rest is dead
			continue
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				e = x.ExpressionList
				continue
			}
			return false
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionCast && x.Type().Kind() == cc.Void {
				e = x.CastExpression
				continue
			}
			return false
		case *cc.PostfixExpression:
			if x.Case != cc.PostfixExpressionCall {
				return false
			}
			name := calleeName(x.PostfixExpression)
			if _, ok := assertFailArg[name]; ok {
				return true
			}
			return (name == "abort" || name == "__builtin_abort") && b.abortIsError()
		}
		return false
	}
	return false
}

// abortIsError: the unit does not follow SV-COMP's convention.
func (b *builder) abortIsError() bool {
	return b.funcDecls["reach_error"] == nil && b.funcDecls["__VERIFIER_error"] == nil
}

// isFailStmt reports whether s only fails: a failure call, or a block
// whose last statement is one and whose other statements cannot leave the
// block or be entered from outside it (no jump, label, loop or
// declaration): they run only on the failing path, which ends there.
func (b *builder) isFailStmt(s *cc.Statement) bool {
	if s == nil {
		return false
	}
	switch s.Case {
	case cc.StatementExpr:
		return s.ExpressionStatement != nil && s.ExpressionStatement.ExpressionList != nil && b.isFailCall(s.ExpressionStatement.ExpressionList)
	case cc.StatementCompound:
		var items []*cc.BlockItem
		for l := s.CompoundStatement.BlockItemList; l != nil; l = l.BlockItemList {
			items = append(items, l.BlockItem)
		}
		if len(items) == 0 {
			return false
		}
		last := items[len(items)-1]
		if last.Case != cc.BlockItemStmt || !b.isFailStmt(last.Statement) {
			return false
		}
		for _, it := range items[:len(items)-1] {
			if it.Case != cc.BlockItemStmt || !closedStmt(it.Statement) {
				return false
			}
		}
		return true
	}
	return false
}

// closedStmt: s has no jump, label, loop, switch or statement expression
// anywhere inside.
func closedStmt(s *cc.Statement) bool {
	ok := true
	walkAST(s, func(n cc.Node) {
		switch x := n.(type) {
		case *cc.JumpStatement, *cc.LabeledStatement, *cc.IterationStatement:
			ok = false
		case *cc.SelectionStatement:
			if x.Case == cc.SelectionStatementSwitch {
				ok = false
			}
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionStmt {
				ok = false
			}
		}
	})
	return ok
}

// isNoop: a constant, possibly in parentheses or cast to void ((void)0).
func isNoop(e cc.ExpressionNode) bool {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			switch x.Case {
			case cc.PrimaryExpressionExpr:
				e = x.ExpressionList
				continue
			case cc.PrimaryExpressionInt:
				return true
			}
			return false
		case *cc.ExpressionList:
			if x.ExpressionList != nil {
				return false
			}
			e = x.AssignmentExpression
			continue
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionCast && x.Type().Kind() == cc.Void {
				e = x.CastExpression
				continue
			}
		}
		return false
	}
}

// assertExpr lowers an expression statement (a discarded expression) of
// one of the assert shapes; false when e is not one.
func (b *builder) assertExpr(e cc.ExpressionNode) bool {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				e = x.ExpressionList
				continue
			}
			return false
		case *cc.ExpressionList:
			if x.ExpressionList != nil {
				return false
			}
			e = x.AssignmentExpression
			continue
		case *cc.CastExpression:
			if x.Case == cc.CastExpressionCast && x.Type().Kind() == cc.Void {
				e = x.CastExpression
				continue
			}
			return false
		case *cc.ConditionalExpression:
			if x.Case != cc.ConditionalExpressionCond || x.ExpressionList == nil {
				return false
			}
			switch {
			case isNoop(x.ExpressionList) && b.isFailCall(x.ConditionalExpression):
				b.assertion(x.LogicalOrExpression, false)
				return true
			case b.isFailCall(x.ExpressionList) && isNoop(x.ConditionalExpression):
				b.assertion(x.LogicalOrExpression, true)
				return true
			}
			return false
		case *cc.LogicalOrExpression:
			if x.Case == cc.LogicalOrExpressionLOr && b.isFailCall(x.LogicalAndExpression) {
				b.assertion(x.LogicalOrExpression, false)
				return true
			}
			return false
		case *cc.LogicalAndExpression:
			if x.Case == cc.LogicalAndExpressionLAnd && b.isFailCall(x.InclusiveOrExpression) {
				b.assertion(x.LogicalAndExpression, true)
				return true
			}
			return false
		}
		return false
	}
}

// assertStmt lowers an if statement one of whose branches only fails:
// the assertion of the condition that avoids it, then the other branch.
func (b *builder) assertStmt(ss *cc.SelectionStatement) bool {
	switch ss.Case {
	case cc.SelectionStatementIf:
		if b.isFailStmt(ss.Statement) {
			b.assertion(ss.ExpressionList, true)
			return true
		}
	case cc.SelectionStatementIfElse:
		if b.isFailStmt(ss.Statement2) {
			b.assertion(ss.ExpressionList, false)
			b.stmt(ss.Statement)
			return true
		}
		if b.isFailStmt(ss.Statement) {
			b.assertion(ss.ExpressionList, true)
			b.stmt(ss.Statement2)
			return true
		}
	}
	return false
}

// assertion emits the check that e holds (negate: that e does not hold),
// "assertion <e as written>".
func (b *builder) assertion(e cc.ExpressionNode, negate bool) {
	e = stripExpect(e)
	if negate {
		if inner, ok := notOperand(e); ok {
			e, negate = stripExpect(inner), false
		}
	}
	text := exprText(e)
	if negate {
		text = "!(" + text + ")"
	}
	v := b.rvalue(e)
	b.setPos(e)
	c := truth(v)
	if negate {
		c = &Unary{Op: Not, X: c, Type: Bool}
	}
	b.check(AssertCheck, c, "assertion "+text)
}

// notOperand returns x when e is !x (in parentheses or not).
func notOperand(e cc.ExpressionNode) (cc.ExpressionNode, bool) {
	for {
		switch x := e.(type) {
		case *cc.PrimaryExpression:
			if x.Case == cc.PrimaryExpressionExpr {
				e = x.ExpressionList
				continue
			}
		case *cc.ExpressionList:
			if x.ExpressionList == nil {
				e = x.AssignmentExpression
				continue
			}
		case *cc.UnaryExpression:
			if x.Case == cc.UnaryExpressionNot {
				return x.CastExpression, true
			}
		}
		return nil, false
	}
}

// stripExpect removes parentheses and __builtin_expect(x, v) around x.
func stripExpect(e cc.ExpressionNode) cc.ExpressionNode {
	for {
		if inner := unwrapParens(e); inner != e {
			e = inner
			continue
		}
		if p, ok := e.(*cc.PostfixExpression); ok && p.Case == cc.PostfixExpressionCall && calleeName(p.PostfixExpression) == "__builtin_expect" {
			if args := argList(p.ArgumentExpressionList); len(args) == 2 {
				e = args[0]
				continue
			}
		}
		return e
	}
}

// unwrapParens removes one level of parentheses or of a one-element list.
func unwrapParens(e cc.ExpressionNode) cc.ExpressionNode {
	switch x := e.(type) {
	case *cc.PrimaryExpression:
		if x.Case == cc.PrimaryExpressionExpr {
			return x.ExpressionList
		}
	case *cc.ExpressionList:
		if x.ExpressionList == nil {
			return x.AssignmentExpression
		}
	}
	return e
}

// exprText is e as written, blanks normalized and outer parentheses
// removed, cut at 80 bytes.
func exprText(e cc.ExpressionNode) string {
	for {
		inner := unwrapParens(e)
		if inner == e {
			break
		}
		e = inner
	}
	return nodeSrc(e)
}
