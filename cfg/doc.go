// Package cfg lowers C (through modernc.org/cc/v4) to the program model of
// DESIGN.md §2: thread templates made of locations, one action each, over
// registers and abstract memory cells. It owns the IR types (ir.go), the
// builder (build*.go, lower.go, expr.go, lvalue.go, ops.go, call.go,
// builtins.go), the points-to analysis (pointsto.go), the whole-program
// passes run after lowering (finish.go), the invariant checker (sanity.go)
// and the printers (print.go). The reference interpreter lives in
// cfg/interp and is not part of this package. The package does no I/O
// except reading the input file in Build/BuildFile and the SV-COMP task
// file in DataModelFromYML, and prints nothing.
//
// # Algorithm
//
//  1. cc.Translate preprocesses, parses and type-checks the unit with the
//     data model's configuration (ILP32: cc's linux/386 ABI with gcc -m32
//     macros; LP64: linux/amd64).
//  2. Lowering starts at main and inlines every call to a defined
//     function; each function passed to pthread_create becomes a thread
//     template lowered the same way. Statements become locations; branches
//     become pairs of assumes; &&, ||, ?: become control flow. Every read of
//     memory or of a Global register goes into a fresh Local temporary, so a
//     location performs at most one shared access. Checks (assertions,
//     array bounds, signed overflow, division by zero) are CheckAct
//     locations placed before the computation they guard.
//  3. Scalars whose address is never taken are registers (Global for file
//     scope and statics, Local otherwise). Everything else lives in memory
//     objects whose cells follow the C type's scalar layout with arrays
//     collapsed to one summary cell per element position.
//  4. After lowering, an Andersen-style points-to analysis over the IR
//     (pointsto.go) gives each Deref its cells, narrows spawn targets, lets
//     unknown external calls havoc what they can reach, computes the mod
//     sets of summarized (recursive or over-budget) calls, and finds the
//     locals whose address escapes to other threads (their cells become
//     Global, and Summary when their template may have many instances).
//  5. Template multiplicity (Unbounded) and Atomic flags are computed on
//     the final graph.
//
// Library functions with a fixed meaning (pthread_*, __VERIFIER_*,
// __CPROVER_*, reach_error, malloc, GCC atomics, printf) are recognized by
// name, even when the file defines them (builtins.go).
package cfg
