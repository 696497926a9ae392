package datalog

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Kind says whether a relation is given (EDB: facts added by the client)
// or derived (IDB: defined by rules).
type Kind int

const (
	EDB Kind = iota
	IDB
)

func (k Kind) String() string {
	if k == EDB {
		return "edb"
	}
	return "idb"
}

// IndexKind selects the index structure used for joins.
type IndexKind int

const (
	// HashIndexes (the default) chain rows of equal key through a hash
	// table; see the package comment for the measurements behind the choice.
	HashIndexes IndexKind = iota
	// BTreeIndexes uses github.com/google/btree for keys of up to two
	// columns (hash indexes for wider keys).
	BTreeIndexes
)

// Option configures a Program.
type Option func(*Program)

// WithMaxTuples bounds the total number of IDB tuples. Evaluate stops with
// an error wrapping ErrTupleLimit when a derivation would exceed it.
// n ≤ 0 means no limit.
func WithMaxTuples(n int) Option { return func(p *Program) { p.maxTuples = n } }

// WithIndexes selects the index structure (default HashIndexes).
func WithIndexes(k IndexKind) Option { return func(p *Program) { p.indexKind = k } }

var (
	// ErrTupleLimit is wrapped by the error Evaluate returns when
	// WithMaxTuples is exceeded.
	ErrTupleLimit = errors.New("datalog: tuple limit exceeded")
	// ErrRetracted is wrapped by the error Evaluate returns when some IDB
	// tuple of the previous result is no longer derivable (possible only
	// when a negated relation grew). The returned Result is still valid
	// and the program is at the new fixpoint.
	ErrRetracted = errors.New("datalog: tuples retracted")
)

// Program is a set of relations and rules with their current contents. It
// is not safe for concurrent use.
type Program struct {
	rels      []*Relation
	byName    map[string]*Relation
	rules     []*Rule
	maxTuples int
	indexKind IndexKind

	idbTuples  int  // tuples currently stored in IDB relations
	evaluating bool // inside Evaluate
	strata     []*stratum
	strataOK   bool // strata computed for the current rule set
	bounds     bounds
}

// Relation is a named relation of fixed arity over uint32 values.
type Relation struct {
	prog  *Program
	id    int
	name  string
	arity int
	kind  Kind
	rules []*Rule // rules with this head
	st    *store

	// Incremental bookkeeping (see eval.go).
	lastLen     int    // rows at the end of the last successful Evaluate
	snapshot    *store // store at the last successful Evaluate, kept when the relation was recomputed since;
	snapshotLen int    // its rows [0, snapshotLen) were the result then
	renumbered  bool   // recomputed from scratch since the last successful Evaluate
	stale       bool   // its rules changed: its stratum must be recomputed
	stratum     int
}

// New returns an empty program.
func New(opts ...Option) *Program {
	p := &Program{byName: map[string]*Relation{}}
	for _, o := range opts {
		o(p)
	}
	return p
}

// maxArity bounds arities so column sets fit a uint32 mask.
const maxArity = 32

// Declare adds a relation. Declaring an existing name again with the same
// arity and kind returns the existing relation.
func (p *Program) Declare(name string, arity int, kind Kind) (*Relation, error) {
	if !validRelName(name) {
		return nil, fmt.Errorf("datalog: invalid relation name %q (want a lower-case identifier)", name)
	}
	if arity < 0 || arity > maxArity {
		return nil, fmt.Errorf("datalog: relation %s: arity %d out of range [0,%d]", name, arity, maxArity)
	}
	if kind != EDB && kind != IDB {
		return nil, fmt.Errorf("datalog: relation %s: invalid kind %d", name, kind)
	}
	if r := p.byName[name]; r != nil {
		if r.arity != arity || r.kind != kind {
			return nil, fmt.Errorf("datalog: relation %s redeclared as %s/%d (was %s/%d)", name, kind, arity, r.kind, r.arity)
		}
		return r, nil
	}
	if p.evaluating {
		return nil, errors.New("datalog: Declare during Evaluate")
	}
	r := &Relation{prog: p, id: len(p.rels), name: name, arity: arity, kind: kind, st: newStore(arity), stale: kind == IDB}
	p.rels = append(p.rels, r)
	p.byName[name] = r
	p.strataOK = false
	return r, nil
}

func validRelName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// Relation returns the relation of that name, or nil.
func (p *Program) Relation(name string) *Relation { return p.byName[name] }

// Relations returns all relations in declaration order.
func (p *Program) Relations() []*Relation { return append([]*Relation(nil), p.rels...) }

// Rules returns the rules in the order they were added.
func (p *Program) Rules() []*Rule { return append([]*Rule(nil), p.rules...) }

// Name returns the relation's name.
func (r *Relation) Name() string { return r.name }

// Arity returns the relation's arity.
func (r *Relation) Arity() int { return r.arity }

// Kind returns EDB or IDB.
func (r *Relation) Kind() Kind { return r.kind }

func (r *Relation) String() string { return fmt.Sprintf("%s/%d", r.name, r.arity) }

// AddFact adds a tuple to an EDB relation; it reports whether the tuple
// was new. The next Evaluate continues from the previous fixpoint.
func (r *Relation) AddFact(t ...uint32) (bool, error) {
	if r.kind != EDB {
		return false, fmt.Errorf("datalog: AddFact on IDB relation %s (add a rule with an empty body instead)", r.name)
	}
	if len(t) != r.arity {
		return false, fmt.Errorf("datalog: AddFact %s: got %d values, want %d", r.name, len(t), r.arity)
	}
	if r.prog.evaluating {
		return false, errors.New("datalog: AddFact during Evaluate")
	}
	if r.st.n >= maxRows {
		return false, fmt.Errorf("%w: relation %s reached %d rows", ErrTupleLimit, r.name, maxRows)
	}
	return r.st.insert(t), nil
}

// Contains reports whether the relation holds the tuple. For IDB relations
// the answer reflects the last successful Evaluate.
func (r *Relation) Contains(t ...uint32) bool { return r.st.contains(t) }

// Len returns the number of tuples.
func (r *Relation) Len() int { return r.st.n }

// Tuples returns all tuples in insertion order (a read-only view).
func (r *Relation) Tuples() Tuples { return r.st.tuples(0, r.st.n) }

// ForEach calls fn for each tuple until fn returns false. fn must not keep
// or modify the slice, nor add facts.
func (r *Relation) ForEach(fn func(t []uint32) bool) {
	s := r.st
	for i := 0; i < s.n; i++ {
		if !fn(s.row(i)) {
			return
		}
	}
}

// Atom builds an atom over this relation, for use in rules.
func (r *Relation) Atom(args ...Term) Atom { return Atom{Rel: r, Args: args} }

// String prints the declarations (as comments) and the rules in the text
// syntax. Parse reads the rules back; declare the relations first (Declare)
// to keep the kinds of relations that no rule with a body derives.
func (p *Program) String() string {
	var b strings.Builder
	for _, r := range p.rels {
		fmt.Fprintf(&b, "%% %s %s\n", r.kind, r)
	}
	for _, ru := range p.rules {
		b.WriteString(ru.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Dump prints the program followed by every tuple, sorted, as facts.
func (p *Program) Dump() string {
	var b strings.Builder
	b.WriteString(p.String())
	for _, r := range p.rels {
		rows := r.Tuples().Slice()
		sort.Slice(rows, func(i, j int) bool { return lessTuple(rows[i], rows[j]) })
		for _, t := range rows {
			b.WriteString(r.name)
			if r.arity > 0 {
				b.WriteByte('(')
				for i, v := range t {
					if i > 0 {
						b.WriteString(", ")
					}
					fmt.Fprint(&b, v)
				}
				b.WriteByte(')')
			}
			b.WriteString(".\n")
		}
	}
	return b.String()
}

func lessTuple(a, b []uint32) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
