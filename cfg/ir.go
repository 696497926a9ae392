package cfg

// This file holds the IR types only (in the style of go/ssa's ssa.go).
// The builder lives in build*.go, the invariant checker in sanity.go,
// the printer in print.go and the reference interpreter in cfg/interp.
//
// The IR is the program model of DESIGN.md §2. Two views of memory coexist
// in it on purpose:
//
//   - the concrete view, used by the reference interpreter: registers (Var
//     with Mem == nil) and byte-addressed objects (Object) accessed through
//     Load/Store with a pointer-valued address expression;
//   - the abstract view, used by the analysis: every Load/Store also names
//     the abstract cells (Var with Mem != nil) its address may denote, as
//     computed by the flow-insensitive points-to analysis.
//
// A register Var is only ever accessed directly (VarRef, or as the
// destination of an action), never through a pointer: variables whose
// address is taken live in memory and are accessed through Load/Store.

import (
	"fmt"
	"go/token"
)

// Program is one lowered C program (one translation unit).
type Program struct {
	File      string
	DataModel DataModel

	Vars      []*Var      // all registers and memory cells; Vars[i].ID == i
	Objects   []*Object   // all memory objects; Objects[i].ID == i
	Templates []*Template // thread templates; Templates[0] is main
	Locs      []*Loc      // all locations of all templates; Locs[i].ID == i
	Checks    []*Check    // all check sites; Checks[i].ID == i
	Bodies    []*Body     // shared function bodies; Bodies[i].ID == i
	JoinAlls  []JoinAll   // main's join-all loops (joinall.go)

	// Assumptions lists the modelling assumptions made while lowering
	// (unknown external functions havocked, recursion summarized, ...),
	// so the output can say what was assumed.
	Assumptions []Assumption
	// SharedThreadLocals lists the thread-local global registers kept as
	// one register of all threads because code that runs in another
	// thread's context mentions them (a callback, a library entry, a
	// constructor; cfg/tls.go). Their ThreadLocal flag is cleared, so
	// every consumer, the interpreter included, sees one shared register:
	// more behaviours than C, which the analysis and exhaustive proofs
	// may use but a counterexample may not (package confirm refuses).
	SharedThreadLocals []*Var
	// Coarsened says how lowering coarsened the program to fit its
	// location budget ("": it did not); a note says the same.
	Coarsened string
}

// DataModel is ILP32 or LP64.
type DataModel int

const (
	LP64 DataModel = iota
	ILP32
)

func (m DataModel) String() string {
	if m == ILP32 {
		return "ILP32"
	}
	return "LP64"
}

// PtrBits is the width of a pointer in the data model.
func (m DataModel) PtrBits() int {
	if m == ILP32 {
		return 32
	}
	return 64
}

// Assumption is a modelling assumption made by the frontend.
type Assumption struct {
	Pos token.Position
	Msg string
	// Note marks the assumptions `chorus check` reports as note: lines
	// (once each: how each unknown external function was modelled, what
	// a library's most general client is); the others are per location,
	// for `chorus cfg` and for confirm.
	Note bool
}

// TypeKind distinguishes integers from pointers.
type TypeKind uint8

const (
	IntType   TypeKind = iota // an integer of Bits width (Bits == 0: a mathematical integer)
	PtrType                   // a pointer (Bits = the data model's pointer width)
	FloatType                 // a floating value: the analysis treats it as unknown
)

// Type is the type of a register, a memory access or an expression.
// Integer types keep width and signedness: overflow checks and unsigned
// wrap-around need them. Bits == 0 with IntType is the unbounded
// mathematical integer type used in check conditions (no wrap).
type Type struct {
	Kind   TypeKind
	Bits   int
	Signed bool
}

// Common types.
var (
	Int32   = Type{Kind: IntType, Bits: 32, Signed: true}
	Uint32  = Type{Kind: IntType, Bits: 32}
	Int64   = Type{Kind: IntType, Bits: 64, Signed: true}
	Bool    = Type{Kind: IntType, Bits: 32, Signed: true} // C comparisons yield int
	MathInt = Type{Kind: IntType}                         // unbounded
)

// IsInt reports whether t is an integer type (bounded or mathematical).
func (t Type) IsInt() bool { return t.Kind == IntType }

// Size is the type's size in bytes (0 for MathInt).
func (t Type) Size() int64 { return int64(t.Bits / 8) }

func (t Type) String() string {
	switch t.Kind {
	case PtrType:
		return fmt.Sprintf("ptr%d", t.Bits)
	case FloatType:
		return fmt.Sprintf("f%d", t.Bits)
	}
	if t.Bits == 0 {
		return "int∞"
	}
	if t.Signed {
		return fmt.Sprintf("i%d", t.Bits)
	}
	return fmt.Sprintf("u%d", t.Bits)
}

// Scope says who can see a variable.
type Scope uint8

const (
	Global Scope = iota // shared by all threads
	Local               // each thread instance has its own copy
)

// Var is a register or an abstract memory cell: the unit the analysis
// tracks values of.
type Var struct {
	ID    int
	Name  string // unique within the program, human-readable
	Scope Scope
	Type  Type
	Pos   token.Position

	// Template is the owning thread template of a Local.
	Template *Template

	// Init is the initial value of a Global register (nil: zero).
	// Locals have no initial value: an uninitialized local holds any value
	// of its type (the analysis gives it ⊤ at the template entry).
	Init Expr

	// Memory cells (Mem != nil) are only accessed through Load/Store.
	Mem    *Object
	Offset int64 // byte offset of the cell within Mem (first byte if a summary)
	// Summary cells may stand for more than one concrete location at
	// once (array elements, heap allocation sites, locals of recursive or
	// many-instance code reachable by others): the analysis must use
	// weak updates on them. Non-summary cells are strongly updatable.
	Summary bool
	// InitCell is what the instances of a summary cell of a GlobalObject
	// or StringObject hold before the program runs, read off the object's
	// C type (initcells.go); nil for other cells, whose bytes are
	// [Offset, Offset+size) of Mem.Init.
	InitCell *CellInit

	// ThreadLocal marks a global register declared _Thread_local or
	// __thread: each thread has its own copy, starting at Init. The
	// analysis may treat it as one shared register (more behaviours);
	// the interpreter (cfg/interp) gives each thread its copy.
	ThreadLocal bool
}

func (v *Var) String() string { return v.Name }

// IsCell reports whether v is an abstract memory cell.
func (v *Var) IsCell() bool { return v.Mem != nil }

// ObjectKind classifies memory objects.
type ObjectKind uint8

const (
	GlobalObject ObjectKind = iota // a global (or static) variable whose address is taken, or an aggregate
	LocalObject                    // a local whose address is taken, or a local aggregate (one per thread instance)
	HeapObject                     // an allocation site (malloc, calloc, ...)
	StringObject                   // a string literal
	FuncObject                     // a function whose address is taken
)

// Object is a memory object: a byte range in the concrete view, split
// into abstract cells in the abstract view.
type Object struct {
	ID       int
	Name     string
	Kind     ObjectKind
	Size     int64 // bytes; -1 when unknown (heap with non-constant size)
	Pos      token.Position
	Template *Template // owner of a LocalObject
	Func     string    // the function a FuncObject stands for
	Cells    []*Var    // the abstract cells of this object, by offset
	// Init lists the initial contents of a GlobalObject or StringObject
	// (all other bytes are zero). LocalObject and HeapObject start with
	// indeterminate contents (calloc's are zeroed by explicit stores or
	// the Alloc's Zero flag).
	Init []InitValue
	// ThreadLocal marks a GlobalObject declared _Thread_local or
	// __thread: each thread has its own instance in C. The analysis and
	// the interpreter treat it as one shared object (more behaviours),
	// so executions of the interpreter may not be C executions.
	ThreadLocal bool
}

// CellInit is the initial contents of the instances of a summary cell:
// the join of Values, any value of the cell's type when Any, and 0 when
// Zero.
type CellInit struct {
	Values []Expr // initializers of whole instances, of the cell's type
	Any    bool   // an initializer overlaps an instance partly or with another type
	Zero   bool   // some byte of some instance has no initializer: it holds 0
}

// InitValue is one initialized scalar inside an object.
type InitValue struct {
	Offset int64
	Type   Type
	Value  Expr // Const or AddrOf
}

// Template is a thread template: main or a function that can be spawned.
type Template struct {
	ID        int
	Name      string // the C function name
	Entry     *Loc
	Exit      *Loc // the thread's termination point (act: Skip, no successors)
	Param     *Var // the local receiving the spawn argument; nil for main or when unused
	Locs      []*Loc
	Locals    []*Var
	Unbounded bool // may have unboundedly many concurrent instances (main: never)
	Spawned   bool // some reachable spawn site can create it (main: false)
}

// Loc is a program location: the point before its action runs.
type Loc struct {
	ID       int
	Template *Template
	Act      Action
	Succs    []*Loc
	Preds    []*Loc
	Pos      token.Position
	// Atomic reports that a thread standing here is inside an atomic
	// section (nesting depth > 0 before Act runs): no other thread moves.
	Atomic bool
	// Return is set on the landing locations of returns from shared
	// bodies (nil elsewhere; see Body).
	Return *ReturnSite
}

// Body is the out-of-line body of a function shared by the call sites of
// one template that are not inlined (cfg/doc.go, "Calls"). Call site k
// assigns the parameters, then (location Calls[k-1]) RetSite := k, whose
// only successor is Entry; the body's returns meet at Exit, whose
// successors are the return sites Returns[k-1] = assume(RetSite == k),
// each with Exit as its only predecessor and, as its only successor, a
// landing Skip whose Return names call site k. A thread may stand at a
// return site that is not its own (stuck at the false assume); only the
// threads returning to call k reach its landing location. The action
// types are the usual ones: an interpreter runs this as is (the function
// is not recursive, so a thread has at most one activation of it at a
// time and the body's Local registers are its frame).
type Body struct {
	ID       int
	Func     string
	Template *Template
	Entry    *Loc
	Exit     *Loc
	RetSite  *Var   // the hidden Local register naming the call site to return to
	Calls    []*Loc // call sites, in order: RetSite := k
	Returns  []*Loc // return sites: Returns[k-1] is assume(RetSite == k)
	// Mod lists (sorted by ID) every variable that an action reachable
	// from Entry before Exit may write or constrain (assumes and checks
	// count, as for the analysis), the bodies it calls included. A
	// variable outside Mod has, at the landing location of call k, the
	// value it had after call site k (the analysis may bypass the body
	// for it).
	Mod []*Var
	// Fresh lists (by ID) the Local registers made while lowering the
	// body (its locals and temporaries, and those of bodies lowered inside
	// it; not its parameters, result or RetSite): at Entry their values
	// are indeterminate for the C program (a new activation), so the
	// analysis may start them as any value there instead of carrying what
	// earlier activations left.
	Fresh []*Var
}

// ReturnSite marks a location as the landing of a return from a shared
// body to the call site Call (the successor of the return site's assume).
type ReturnSite struct {
	Body *Body
	Call *Loc
}

func (l *Loc) String() string { return fmt.Sprintf("L%d", l.ID) }

// Action is what a location does. The concrete types are below.
type Action interface{ isAction() }

// Assign: Dst := Src.
type Assign struct {
	Dst LValue
	Src Expr
}

// Assume blocks unless Cond is non-zero.
type Assume struct{ Cond Expr }

// Havoc sets Dst to any value of its type (nondeterministic input).
//
// The builder also uses Havoc for the effects of unknown external
// functions and of summarized calls: a Deref whose Addr is AddrOf a cell's
// object at the cell's offset havocs that cell; a Deref whose Addr is
// AddrOf the "<unknown>" object and that lists several Cells havocs every
// one of them (for the analysis, a weak update of each with an arbitrary
// value). An interpreter meeting such a havoc of a summary cell should
// havoc every concrete location the cell stands for (or give up).
type Havoc struct{ Dst LValue }

// CheckAct is a check site: Cond must be non-zero here. It does not change
// the state; execution continues assuming Cond held.
type CheckAct struct {
	Check *Check
	Cond  Expr
}

// Acquire atomically waits until the lock word is 0 and sets it to 1.
type Acquire struct{ Lock LValue }

// Release sets the lock word to 0. Custom marks the release of a lock
// built from atomic sections (atomiclock.go): unlike pthread_mutex_unlock,
// it may release a lock another thread holds, so the analysis must not
// assume the releasing thread is the holder.
type Release struct {
	Lock   LValue
	Custom bool
}

// AtomicBegin enters an atomic section (nesting allowed).
type AtomicBegin struct{}

// AtomicEnd leaves an atomic section.
type AtomicEnd struct{}

// Spawn starts a new thread running one of Targets (Fn's value selects it
// in the concrete view) with argument Arg, and stores the new thread's id
// through Handle when non-nil.
type Spawn struct {
	Fn      Expr // a function address (AddrOf a FuncObject)
	Targets []*Template
	Arg     Expr   // may be nil
	Handle  LValue // may be nil
}

// Join waits until the thread whose id is Handle's value has terminated.
type Join struct{ Handle Expr }

// Alloc makes Dst point to a fresh object of allocation site Site.
type Alloc struct {
	Dst  LValue
	Site *Object
	Size Expr
	Zero bool // calloc: contents zero
}

// Skip does nothing.
type Skip struct{}

// InitGlobals is the action of the first location of main (Templates[0].Entry)
// and of no other location: program start. After it, every Global register
// holds its initial value (Var.Init, zero when nil) and every GlobalObject
// and StringObject holds its initial contents (Object.Init, zero elsewhere).
// It is the only writer of initial global values (DESIGN.md §3: "init").
type InitGlobals struct{}

// Output is a call to printf with a constant format string (after escape
// processing) and its value arguments, for the reference interpreter and
// differential tests. The analysis treats it as Skip. Args are
// side-effect-free and read no shared memory (the builder loads them into
// temporaries first); %s arguments are pointers.
type Output struct {
	Format string
	Args   []Expr
}

func (*Assign) isAction()      {}
func (*Assume) isAction()      {}
func (*Havoc) isAction()       {}
func (*CheckAct) isAction()    {}
func (*Acquire) isAction()     {}
func (*Release) isAction()     {}
func (*AtomicBegin) isAction() {}
func (*AtomicEnd) isAction()   {}
func (*Spawn) isAction()       {}
func (*Join) isAction()        {}
func (*Alloc) isAction()       {}
func (*Skip) isAction()        {}
func (*InitGlobals) isAction() {}
func (*Output) isAction()      {}

// LValue is a destination: a register (*VarRef) or memory (*Deref).
type LValue interface {
	Expr
	isLValue()
}

// Expr is a side-effect-free expression.
type Expr interface {
	ExprType() Type
}

// Const is an integer constant (for unsigned 64-bit values, the bits).
// With a FloatType, Value holds the bits of the float64 value
// (math.Float64bits), whatever the type's width.
type Const struct {
	Type  Type
	Value int64
}

// VarRef reads or names a register.
type VarRef struct{ Var *Var }

// Deref names the memory at Addr, read or written with Type. Cells are the
// abstract cells Addr may denote (from the points-to analysis); an access
// with exactly one non-summary cell is a strong update.
//
// Cells lists every cell that may overlap the bytes accessed (offsets are
// compared after normalization: array indices zeroed). A cell that does
// not match the access exactly - another Type or size, or only a partial
// overlap (type punning through unions or casts, the <unknown> object's
// blob cell) - is not a faithful copy of the value: reading it gives an
// unknown value of the access Type, and writing it leaves it holding an
// unknown value of its own Type. Only a cell of the same Type at the
// accessed (normalized) offset carries the value.
type Deref struct {
	Addr  Expr
	Type  Type
	Cells []*Var
}

// AddrOf is the address of Object plus a constant byte Offset.
type AddrOf struct {
	Object *Object
	Offset int64
	Type   Type // a pointer type
}

// Unary operators.
type UnOp uint8

const (
	Neg    UnOp = iota // -x
	Not                // !x (0 or 1)
	BitNot             // ~x
)

// Unary applies Op and wraps the result to Type.
type Unary struct {
	Op   UnOp
	X    Expr
	Type Type
}

// BinOp are binary operators. Comparisons yield 0 or 1.
type BinOp uint8

const (
	Add BinOp = iota
	Sub
	Mul
	Div // C division (truncates toward zero)
	Rem // C remainder (sign of the dividend)
	Shl
	Shr // arithmetic for signed, logical for unsigned operand types
	And
	Or
	Xor
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	LAnd // only inside conditions where both sides are side-effect free and safe
	LOr
	PtrAdd // pointer + byte offset (Y is an integer number of bytes)
	PtrSub // pointer - pointer in bytes
)

// Binary computes X Op Y. Both operands are converted to their own types
// already (the builder inserts casts for the usual arithmetic
// conversions); the result is wrapped to Type (Type == MathInt: no wrap).
// Signed overflow is a check placed before the location that computes it.
//
// Contract with the analysis: the builder places an OverflowCheck before
// every signed Add/Sub/Mul/Div/Rem/Shl/Neg that may overflow (C makes the
// overflow undefined behaviour). Like every check, it is assumed to hold on
// the paths that continue, so the analysis may clamp a signed Binary's
// result to its type's range (meet) instead of wrapping it; proofs are then
// "no check fails", the usual reading for C. Casts (implementation-defined,
// gcc wraps) and unsigned arithmetic always wrap.
type Binary struct {
	Op   BinOp
	X, Y Expr
	Type Type
}

// Cast converts X to Type (wraps for integer narrowing, sign changes).
type Cast struct {
	X    Expr
	Type Type
}

func (e *Const) ExprType() Type  { return e.Type }
func (e *VarRef) ExprType() Type { return e.Var.Type }
func (e *Deref) ExprType() Type  { return e.Type }
func (e *AddrOf) ExprType() Type { return e.Type }
func (e *Unary) ExprType() Type  { return e.Type }
func (e *Binary) ExprType() Type { return e.Type }
func (e *Cast) ExprType() Type   { return e.Type }

func (*VarRef) isLValue() {}
func (*Deref) isLValue()  {}

// CheckKind is the kind of a check site.
type CheckKind uint8

const (
	AssertCheck    CheckKind = iota // assert, __VERIFIER_assert, reachable reach_error
	BoundsCheck                     // array index within [0, length)
	OverflowCheck                   // signed arithmetic within the type's range
	DivByZeroCheck                  // divisor non-zero
	ShiftCheck                      // shift count within [0, width of the promoted left operand)
)

// String gives the name used in output ("assert", "array-bounds", ...).
func (k CheckKind) String() string {
	switch k {
	case AssertCheck:
		return "assert"
	case BoundsCheck:
		return "array-bounds"
	case OverflowCheck:
		return "signed-overflow"
	case DivByZeroCheck:
		return "div-by-zero"
	case ShiftCheck:
		return "shift-count"
	}
	return "unknown"
}

// Check is a check site.
type Check struct {
	ID   int
	Kind CheckKind
	Pos  token.Position
	Func string // the C function containing it
	Msg  string // e.g. "assertion counter >= 0", "index i out of [0, 10)"
	Loc  *Loc
}
