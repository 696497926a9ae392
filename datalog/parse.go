package datalog

import (
	"fmt"
	"strconv"
)

// ParseError is a syntax or semantic error in program text.
type ParseError struct {
	File      string
	Line, Col int // 1-based; Col counts bytes
	Msg       string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// Parse reads clauses in the text syntax and adds them to p:
//
//	% comment to end of line
//	edge(1, 2).                              % a fact
//	path(X, Y) :- edge(X, Y).
//	path(X, Z) :- path(X, Y), edge(Y, Z), X != Z.
//	lonely(X)  :- node(X), !edge(X, _), !edge(_, X).
//
// Relation names start with a lower-case letter; variables with an
// upper-case letter or '_' ('_' alone is the wildcard); constants are
// decimal uint32. Body literals: atoms, !atom, T = T, T != T.
// Relations not declared yet are declared here: IDB if some clause of this
// text with a body derives them, EDB otherwise; arity from the first use.
// Facts of EDB relations become facts, facts of IDB relations bodiless rules.
// file names the source in error positions (file:line:col). On error,
// clauses before the erroneous one may already have been added.
func (p *Program) Parse(file, src string) error {
	ps := &parser{file: file, lx: lexer{src: src, line: 1, col: 1}}
	var clauses []pClause
	ps.next()
	for ps.tok.kind != tEOF {
		c, err := ps.clause()
		if err != nil {
			return err
		}
		clauses = append(clauses, c)
	}
	errAt := func(pos tokPos, format string, args ...any) error {
		return &ParseError{File: file, Line: pos.line, Col: pos.col, Msg: fmt.Sprintf(format, args...)}
	}
	derived := map[string]bool{}
	for _, c := range clauses {
		if len(c.body) > 0 {
			derived[c.head.name] = true
		}
	}
	rel := func(a pAtom) (*Relation, error) {
		if r := p.byName[a.name]; r != nil {
			if r.arity != len(a.args) {
				return nil, errAt(a.pos, "%s used with %d arguments, but it has arity %d", a.name, len(a.args), r.arity)
			}
			return r, nil
		}
		kind := EDB
		if derived[a.name] {
			kind = IDB
		}
		r, err := p.Declare(a.name, len(a.args), kind)
		if err != nil {
			return nil, errAt(a.pos, "%v", err)
		}
		return r, nil
	}
	for _, c := range clauses {
		h, err := rel(c.head)
		if err != nil {
			return err
		}
		if len(c.body) == 0 && h.kind == EDB {
			vals := make([]uint32, len(c.head.args))
			for i, t := range c.head.args {
				if !t.t.IsConst() {
					return errAt(t.pos, "fact %s must be ground (argument %s)", c.head.name, t.t)
				}
				vals[i] = t.t.val
			}
			if _, err := h.AddFact(vals...); err != nil {
				return errAt(c.head.pos, "%v", err)
			}
			continue
		}
		if h.kind == EDB {
			return errAt(c.head.pos, "rule derives EDB relation %s", h.name)
		}
		head := Atom{Rel: h, Args: c.head.terms()}
		var body []Literal
		for _, l := range c.body {
			switch l.kind {
			case litAtom, litNeg:
				r, err := rel(l.atom)
				if err != nil {
					return err
				}
				a := Atom{Rel: r, Args: l.atom.terms()}
				if l.kind == litNeg {
					body = append(body, Not(a))
				} else {
					body = append(body, a)
				}
			case litEq:
				body = append(body, Eq(l.left.t, l.right.t))
			case litNeq:
				body = append(body, Neq(l.left.t, l.right.t))
			}
		}
		if err := p.AddRule(head, body...); err != nil {
			return errAt(c.pos, "%v", err)
		}
	}
	return nil
}

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tVar
	tAny
	tInt
	tLParen
	tRParen
	tComma
	tDot
	tIf
	tNot
	tEq
	tNeq
	tError
)

var tokNames = [...]string{"end of input", "relation name", "variable", "_", "integer", "'('", "')'", "','", "'.'", "':-'", "'!'", "'='", "'!='", "invalid character"}

type tokPos struct{ line, col int }

type token struct {
	kind tokKind
	text string
	pos  tokPos
}

type lexer struct {
	src       string
	off       int
	line, col int
}

func (lx *lexer) advance(n int) {
	for i := 0; i < n; i++ {
		if lx.src[lx.off] == '\n' {
			lx.line++
			lx.col = 1
		} else {
			lx.col++
		}
		lx.off++
	}
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func (lx *lexer) lex() token {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			lx.advance(1)
		} else if c == '%' {
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.advance(1)
			}
		} else {
			break
		}
	}
	pos := tokPos{lx.line, lx.col}
	if lx.off >= len(lx.src) {
		return token{kind: tEOF, pos: pos}
	}
	c := lx.src[lx.off]
	rest := lx.src[lx.off:]
	one := func(k tokKind) token { lx.advance(1); return token{kind: k, text: rest[:1], pos: pos} }
	switch {
	case c == '(':
		return one(tLParen)
	case c == ')':
		return one(tRParen)
	case c == ',':
		return one(tComma)
	case c == '.':
		return one(tDot)
	case c == '=':
		return one(tEq)
	case c == '!':
		if len(rest) > 1 && rest[1] == '=' {
			lx.advance(2)
			return token{kind: tNeq, text: "!=", pos: pos}
		}
		return one(tNot)
	case c == ':':
		if len(rest) > 1 && rest[1] == '-' {
			lx.advance(2)
			return token{kind: tIf, text: ":-", pos: pos}
		}
	case c >= '0' && c <= '9':
		n := 0
		for n < len(rest) && isIdentByte(rest[n]) {
			n++
		}
		lx.advance(n)
		return token{kind: tInt, text: rest[:n], pos: pos}
	case isIdentByte(c):
		n := 0
		for n < len(rest) && isIdentByte(rest[n]) {
			n++
		}
		lx.advance(n)
		t := token{kind: tIdent, text: rest[:n], pos: pos}
		switch {
		case t.text == "_":
			t.kind = tAny
		case c == '_' || c >= 'A' && c <= 'Z':
			t.kind = tVar
		}
		return t
	}
	lx.advance(1)
	return token{kind: tError, text: rest[:1], pos: pos}
}

type pTerm struct {
	t   Term
	pos tokPos
}

type pAtom struct {
	name string
	pos  tokPos
	args []pTerm
}

func (a pAtom) terms() []Term {
	ts := make([]Term, len(a.args))
	for i, t := range a.args {
		ts[i] = t.t
	}
	return ts
}

type litKind int

const (
	litAtom litKind = iota
	litNeg
	litEq
	litNeq
)

type pLit struct {
	kind        litKind
	atom        pAtom
	left, right pTerm
}

type pClause struct {
	pos  tokPos
	head pAtom
	body []pLit
}

type parser struct {
	file string
	lx   lexer
	tok  token
}

func (ps *parser) next() { ps.tok = ps.lx.lex() }

func (ps *parser) errorf(pos tokPos, format string, args ...any) error {
	return &ParseError{File: ps.file, Line: pos.line, Col: pos.col, Msg: fmt.Sprintf(format, args...)}
}

func (ps *parser) unexpected(want string) error {
	got := tokNames[ps.tok.kind]
	if ps.tok.kind != tEOF {
		got += " " + strconv.Quote(ps.tok.text)
	}
	return ps.errorf(ps.tok.pos, "expected %s, found %s", want, got)
}

func (ps *parser) clause() (pClause, error) {
	c := pClause{pos: ps.tok.pos}
	h, err := ps.atom()
	if err != nil {
		return c, err
	}
	c.head = h
	if ps.tok.kind == tIf {
		ps.next()
		for {
			l, err := ps.literal()
			if err != nil {
				return c, err
			}
			c.body = append(c.body, l)
			if ps.tok.kind != tComma {
				break
			}
			ps.next()
		}
	}
	if ps.tok.kind != tDot {
		if len(c.body) == 0 {
			return c, ps.unexpected("':-' or '.'")
		}
		return c, ps.unexpected("',' or '.'")
	}
	ps.next()
	return c, nil
}

func (ps *parser) atom() (pAtom, error) {
	a := pAtom{name: ps.tok.text, pos: ps.tok.pos}
	if ps.tok.kind != tIdent {
		return a, ps.unexpected("relation name")
	}
	ps.next()
	if ps.tok.kind != tLParen {
		return a, nil // arity 0
	}
	ps.next()
	if ps.tok.kind == tRParen {
		ps.next()
		return a, nil
	}
	for {
		t, err := ps.term()
		if err != nil {
			return a, err
		}
		a.args = append(a.args, t)
		if ps.tok.kind == tRParen {
			ps.next()
			return a, nil
		}
		if ps.tok.kind != tComma {
			return a, ps.unexpected("',' or ')'")
		}
		ps.next()
	}
}

func (ps *parser) term() (pTerm, error) {
	t := pTerm{pos: ps.tok.pos}
	switch ps.tok.kind {
	case tVar:
		t.t = Var(ps.tok.text)
	case tAny:
		t.t = Any
	case tInt:
		v, err := strconv.ParseUint(ps.tok.text, 10, 32)
		if err != nil {
			return t, ps.errorf(t.pos, "invalid constant %q (want a decimal uint32)", ps.tok.text)
		}
		t.t = Const(uint32(v))
	default:
		return t, ps.unexpected("variable, _ or integer")
	}
	ps.next()
	return t, nil
}

func (ps *parser) literal() (pLit, error) {
	switch ps.tok.kind {
	case tNot:
		ps.next()
		a, err := ps.atom()
		return pLit{kind: litNeg, atom: a}, err
	case tIdent:
		a, err := ps.atom()
		return pLit{kind: litAtom, atom: a}, err
	case tVar, tAny, tInt:
		l, err := ps.term()
		if err != nil {
			return pLit{}, err
		}
		var kind litKind
		switch ps.tok.kind {
		case tEq:
			kind = litEq
		case tNeq:
			kind = litNeq
		default:
			return pLit{}, ps.unexpected("'=' or '!='")
		}
		ps.next()
		r, err := ps.term()
		return pLit{kind: kind, left: l, right: r}, err
	}
	return pLit{}, ps.unexpected("atom, negated atom or constraint")
}
