package datalog

import (
	"errors"
	"fmt"
	"strings"
)

type termKind uint8

const (
	termInvalid termKind = iota
	termVar
	termConst
	termAny
)

// Term is a rule argument: a variable, a constant or the wildcard.
type Term struct {
	kind termKind
	name string
	val  uint32
}

// Var returns the variable of that name.
func Var(name string) Term { return Term{kind: termVar, name: name} }

// Vars returns one variable per name.
func Vars(names ...string) []Term {
	ts := make([]Term, len(names))
	for i, n := range names {
		ts[i] = Var(n)
	}
	return ts
}

// Const returns the constant v.
func Const(v uint32) Term { return Term{kind: termConst, val: v} }

// Any is the wildcard `_`: a fresh variable matched by anything.
var Any = Term{kind: termAny}

// IsVar, IsConst and IsAny classify the term.
func (t Term) IsVar() bool   { return t.kind == termVar }
func (t Term) IsConst() bool { return t.kind == termConst }
func (t Term) IsAny() bool   { return t.kind == termAny }

// Name returns a variable's name; Value a constant's value.
func (t Term) Name() string  { return t.name }
func (t Term) Value() uint32 { return t.val }

func (t Term) String() string {
	switch t.kind {
	case termVar:
		return t.name
	case termConst:
		return fmt.Sprint(t.val)
	case termAny:
		return "_"
	}
	return "<invalid>"
}

// Literal is one element of a rule body: an Atom (positive), Not(atom),
// Eq(a, b) or Neq(a, b).
type Literal interface {
	isLiteral()
	String() string
}

// Atom is a relation applied to terms.
type Atom struct {
	Rel  *Relation
	Args []Term
}

func (Atom) isLiteral() {}

func (a Atom) String() string {
	var b strings.Builder
	if a.Rel == nil {
		b.WriteString("<nil>")
	} else {
		b.WriteString(a.Rel.name)
	}
	if len(a.Args) > 0 || a.Rel == nil || a.Rel.arity > 0 {
		b.WriteByte('(')
		for i, t := range a.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(t.String())
		}
		b.WriteByte(')')
	}
	return b.String()
}

// Negation is a negated atom, written !a(...).
type Negation struct{ Atom Atom }

func (Negation) isLiteral()       {}
func (n Negation) String() string { return "!" + n.Atom.String() }

// Not negates an atom. The atom's relation must be computable in a lower
// stratum (see the package comment); variables in it must also occur in a
// positive atom of the rule (use Any for "some value").
func Not(a Atom) Literal { return Negation{a} }

// Constraint is X = Y or X != Y between terms.
type Constraint struct {
	Left, Right Term
	Negated     bool // true for !=
}

func (Constraint) isLiteral() {}
func (c Constraint) String() string {
	op := " = "
	if c.Negated {
		op = " != "
	}
	return c.Left.String() + op + c.Right.String()
}

// Eq constrains two terms to be equal; Neq to differ.
func Eq(a, b Term) Literal  { return Constraint{a, b, false} }
func Neq(a, b Term) Literal { return Constraint{a, b, true} }

// arg is a compiled term: slot ≥ 0 is a variable slot, argConst a
// constant (val), argAny the wildcard.
type arg struct {
	slot int32
	val  uint32
}

const (
	argConst = -1
	argAny   = -2
)

type cAtom struct {
	rel  *Relation
	args []arg
}

// Rule is a Horn clause with stratified negation, as added by AddRule.
// Head and Body are the rule as given (read-only: the engine runs the form
// compiled by AddRule).
type Rule struct {
	Head Atom
	Body []Literal

	// Compiled form: equalities are eliminated by substitution (union-find
	// over variables and constants), variables numbered 0..nvars-1.
	never bool // the equalities or inequalities are unsatisfiable
	head  cAtom
	pos   []cAtom
	neg   []cAtom
	neqs  [][2]arg
	nvars int
	// varNames[slot] names the variable (after substitution), for Explain.
	varNames []string
}

func (r *Rule) String() string {
	var b strings.Builder
	b.WriteString(r.Head.String())
	if len(r.Body) > 0 {
		b.WriteString(" :- ")
		for i, l := range r.Body {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(l.String())
		}
	}
	b.WriteByte('.')
	return b.String()
}

// AddRule adds head :- body. Constraints: every variable of the head, of a
// negated atom or of an inequality must occur in a positive body atom (or be
// equated to one, or to a constant); the head has no wildcards; the head
// relation is IDB. Rules may be added between evaluations; the strata they
// touch are then recomputed.
func (p *Program) AddRule(head Atom, body ...Literal) error {
	r, err := p.compileRule(head, body)
	if err != nil {
		return fmt.Errorf("datalog: rule %s: %w", r, err)
	}
	p.rules = append(p.rules, r)
	head.Rel.rules = append(head.Rel.rules, r)
	head.Rel.stale = true
	p.strataOK = false
	return nil
}

func (p *Program) checkAtom(a Atom) error {
	if a.Rel == nil {
		return errors.New("atom without relation")
	}
	if a.Rel.prog != p {
		return fmt.Errorf("relation %s belongs to another program", a.Rel.name)
	}
	if len(a.Args) != a.Rel.arity {
		return fmt.Errorf("%s has %d arguments, want %d", a, len(a.Args), a.Rel.arity)
	}
	for _, t := range a.Args {
		if err := checkTerm(t); err != nil {
			return err
		}
	}
	return nil
}

func checkTerm(t Term) error {
	switch t.kind {
	case termVar:
		if t.name == "" {
			return errors.New("variable without name")
		}
	case termConst, termAny:
	default:
		return errors.New("invalid term (use Var, Const or Any)")
	}
	return nil
}

func (p *Program) compileRule(head Atom, body []Literal) (*Rule, error) {
	r := &Rule{Head: head, Body: append([]Literal(nil), body...)}
	if p.evaluating {
		return r, errors.New("AddRule during Evaluate")
	}
	if err := p.checkAtom(head); err != nil {
		return r, err
	}
	if head.Rel.kind != IDB {
		return r, fmt.Errorf("head relation %s is EDB; rules may only derive IDB relations", head.Rel.name)
	}
	for _, t := range head.Args {
		if t.kind == termAny {
			return r, errors.New("wildcard _ in the head")
		}
	}
	// Union-find over variable names; a class may carry one constant.
	parent := map[string]string{}
	constOf := map[string]uint32{}
	var find func(string) string
	find = func(x string) string {
		if _, ok := parent[x]; !ok {
			parent[x] = x
		}
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	bindConst := func(v string, c uint32) {
		root := find(v)
		if old, ok := constOf[root]; ok && old != c {
			r.never = true
		}
		constOf[root] = c
	}
	for _, l := range body {
		switch l := l.(type) {
		case Atom:
			if err := p.checkAtom(l); err != nil {
				return r, err
			}
		case Negation:
			if err := p.checkAtom(l.Atom); err != nil {
				return r, err
			}
		case Constraint:
			if err := checkTerm(l.Left); err != nil {
				return r, err
			}
			if err := checkTerm(l.Right); err != nil {
				return r, err
			}
			if l.Left.kind == termAny || l.Right.kind == termAny {
				return r, errors.New("wildcard _ in a constraint")
			}
			if l.Negated {
				continue
			}
			a, b := l.Left, l.Right
			switch {
			case a.kind == termConst && b.kind == termConst:
				if a.val != b.val {
					r.never = true
				}
			case a.kind == termConst:
				bindConst(b.name, a.val)
			case b.kind == termConst:
				bindConst(a.name, b.val)
			default:
				ra, rb := find(a.name), find(b.name)
				if ra != rb {
					ca, oka := constOf[ra]
					cb, okb := constOf[rb]
					parent[rb] = ra
					if okb {
						delete(constOf, rb)
						if oka && ca != cb {
							r.never = true
						}
						constOf[ra] = cb
					}
				}
			}
		case nil:
			return r, errors.New("nil literal")
		default:
			return r, fmt.Errorf("unknown literal %T", l)
		}
	}
	// Substitute and number the variables, positive atoms first so that
	// "bound by a positive atom" is simply slot < nPosVars.
	slots := map[string]int32{}
	subst := func(t Term) Term {
		if t.kind != termVar {
			return t
		}
		root := find(t.name)
		if c, ok := constOf[root]; ok {
			return Const(c)
		}
		return Var(root)
	}
	compile := func(t Term, define bool) (arg, bool) {
		t = subst(t)
		switch t.kind {
		case termConst:
			return arg{slot: argConst, val: t.val}, true
		case termAny:
			return arg{slot: argAny}, true
		}
		s, ok := slots[t.name]
		if !ok {
			if !define {
				return arg{}, false
			}
			s = int32(len(slots))
			slots[t.name] = s
		}
		return arg{slot: s}, true
	}
	for _, l := range body {
		if a, ok := l.(Atom); ok {
			ca := cAtom{rel: a.Rel}
			for _, t := range a.Args {
				x, _ := compile(t, true)
				ca.args = append(ca.args, x)
			}
			r.pos = append(r.pos, ca)
		}
	}
	unbound := func(t Term) error {
		return fmt.Errorf("variable %s must occur in a positive body atom", t.name)
	}
	for _, l := range body {
		switch l := l.(type) {
		case Negation:
			ca := cAtom{rel: l.Atom.Rel}
			for _, t := range l.Atom.Args {
				x, ok := compile(t, false)
				if !ok {
					return r, unbound(t)
				}
				ca.args = append(ca.args, x)
			}
			r.neg = append(r.neg, ca)
		case Constraint:
			if !l.Negated {
				continue
			}
			a, oka := compile(l.Left, false)
			if !oka {
				return r, unbound(l.Left)
			}
			b, okb := compile(l.Right, false)
			if !okb {
				return r, unbound(l.Right)
			}
			switch {
			case a.slot == argConst && b.slot == argConst:
				if a.val == b.val {
					r.never = true
				}
				continue
			case a.slot >= 0 && a.slot == b.slot:
				r.never = true
				continue
			}
			r.neqs = append(r.neqs, [2]arg{a, b})
		}
	}
	r.head = cAtom{rel: head.Rel}
	for _, t := range head.Args {
		x, ok := compile(t, false)
		if !ok {
			return r, unbound(t)
		}
		r.head.args = append(r.head.args, x)
	}
	r.nvars = len(slots)
	r.varNames = make([]string, len(slots))
	for name, s := range slots {
		r.varNames[s] = name
	}
	return r, nil
}
