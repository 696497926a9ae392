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
//     macros; LP64: linux/amd64). BuildFiles/BuildLinked translate several
//     units one by one and lower them as one program (link.go: external
//     names shared, static names renamed name@file, duplicate definitions
//     an error).
//  2. Lowering starts at main (or, for a library, at the synthetic
//     client, "Libraries" below) and inlines calls to defined functions, or
//     sends them to the template's shared body of the callee (call.go,
//     "Calls" below); each function passed to pthread_create becomes a
//     thread template lowered the same way. Statements become locations; branches
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
//     (pointsto.go; the difference-propagation solver over a constraint
//     graph with cycle collapsing is ptsolve.go) gives each Deref its cells, narrows spawn targets, lets
//     unknown external calls havoc what they can reach, computes the mod
//     sets of summarized (recursive) calls and of shared bodies, and finds the
//     locals whose address escapes to other threads (their cells become
//     Global, and Summary when their template may have many instances).
//  5. Template multiplicity (Unbounded) and Atomic flags are computed on
//     the final graph.
//
// Library functions with a fixed meaning (pthread_*, __VERIFIER_*,
// __CPROVER_*, reach_error, malloc, GCC atomics, printf) are recognized by
// name, even when the file defines them (builtins.go).
//
// # Modelling choices (soundness)
//
// Memory:
//   - A scalar whose address is never taken (per cc and a syntactic scan
//     for &name) is a register; everything else is memory.
//   - Cells: one per scalar leaf of the C type, array elements collapsed
//     (Summary); unions contribute every member's leaves (overlapping);
//     pthread_mutex_t / pthread_spinlock_t objects are one i32 lock word.
//   - Heap: one object per allocation site in the lowered program, all
//     cells Summary and Global; the site takes the layout of the pointer
//     type it is converted to (array of that type), else one blob cell.
//   - Locals live per thread (Local) unless the points-to graph lets them
//     escape (reachable from globals, heap, or a spawn argument): then
//     Global, and Summary when the owner template is Unbounded or the
//     object belongs to a generic (recursive) instance.
//   - Pointer arithmetic is assumed to stay inside the array it starts in
//     (C11 6.5.6p8); accesses that do not match a cell exactly touch all
//     cells of the object; unresolved pointers touch <unknown>.
//
// Calls and threads:
//   - Calls are inlined unless shareCall (call.go) decides otherwise:
//     over the location budget, over a function's share of it, or in a
//     large unit for a callee whose inline cost (its nodes and those of
//     what it inlines) is not small and that may be called from several
//     sites. Then the call goes to the template's shared Body of the
//     callee: params := args; RetSite := k; jump to Entry; the Exit
//     branches to every return site assume(RetSite == k), whose Return
//     names its call site. The callee is not recursive (bodies are lowered
//     nested in the caller's frame chain when first called, and a call to
//     a function on the chain is recursion), so one activation per thread
//     exists at a time and the body's Local registers are its frame; an
//     interpreter runs the IR as is. Body.Mod (finish.go, bodyMods) holds
//     every variable the body's actions, and the bodies it calls, may write
//     or constrain; the analysis bypasses the body at a return site for
//     cells outside it (dfg). Aggregate results are copied out at the
//     return site (a later call overwrites the body's result object).
//   - Recursive calls are summarized: the call site branches into one
//     generic out-of-line copy of the callee per template (so its checks
//     are explored at every depth; it never returns) or continues after
//     havocking the callee's mod set (computed after the points-to
//     analysis, including the Mod of shared bodies it calls).
//   - __VERIFIER_atomic_* functions are always inlined (atomic sections
//     stay per path); so are functions that may spawn threads in small
//     units (in large ones they share like any other: a spawn site in a
//     shared body called twice lies on a cycle, its templates Unbounded).
//   - Atomic flags and must-locksets over shared bodies are meets over
//     every path of the template's location graph, call/return edges
//     included: a body entered inside and outside an atomic section is
//     not atomic; the analysis may not rely on more.
//   - Indirect calls dispatch over the address-taken functions of a
//     compatible shape; any other target is undefined behaviour.
//   - A template is bounded only when exactly one reachable spawn site in
//     main, on no cycle, creates it; otherwise Unbounded.
//   - Join-all loops of main's own body (a loop creating threads into
//     tid[i], later a loop of the same bounds joining tid[j]; joinall.go)
//     are recorded in Program.JoinAlls: past the join loop, every thread
//     the create loop started has terminated (interference/join.go).
//   - pthread_create always succeeds; malloc never returns NULL; exit and
//     abort stop the calling thread only (other threads may go on: more
//     behaviours); trylock may fail spuriously; condition waits are
//     release+acquire (spurious wake-ups); read-write locks are one lock
//     word taken by writers only; barriers and semaphores are unknown
//     calls (no synchronization: more behaviours).
//   - C library functions of libc.go have models of their own: they write
//     only memory reachable from their arguments (or none), call no
//     function pointer and keep no pointer; strdup/realloc allocate.
//   - External functions without a body (unknown externals, callback.go)
//     return any value of their type and may overwrite the memory
//     reachable from their arguments and from address-taken global
//     objects (lock objects excepted: unknown code does not act on the
//     program's locks), storing unknown pointers there. They may call
//     every defined function whose address they can reach that way (the
//     points-to analysis decides, per call site) any number of times, in
//     the calling thread or in threads they create: each such function is
//     an Unbounded thread template spawned at the call, whose parameters
//     hold any value (pointers: anything any unknown call can reach, or
//     unknown memory). The spawn covers the synchronous calls too (the
//     spawned threads may run between the call and the return; what they
//     write is shared memory, and the memory they reach escapes to
//     Global). Assumed: unknown code writes memory only during a call to
//     it or through such callbacks (no asynchronous writes of its own
//     after it returns), does not call main, and a callback reached only
//     from inside a summarized recursive call runs only there. Each
//     external is stated once as a note (Assumption.Note) in check's
//     output; logging functions (printf, printk, ...) are assumed pure.
//
// Libraries (library.go): a unit without main, or any unit with
// Options.Entries, is analyzed against its most general client. Exactly
// what is assumed:
//   - Entry points are the functions named by Options.Entries, else every
//     defined function with external linkage (not static). The client
//     calls them in any order, any number of times, from any number of
//     threads at once: the synthetic main "<client>" runs InitGlobals
//     (globals start as C says) and then, in a loop, spawns an Unbounded
//     template per entry point. With EntryThreads == 1 (a library that is
//     not thread-safe) it is one thread calling the entries (inlined) in
//     any order in a loop, and no other client thread exists.
//   - Arguments are any values of their types. Pointers point to a fresh
//     object of the declared type (one allocation site per entry and
//     parameter, any contents; the library may keep it), or to anything
//     the library handed out before (what entries returned and the
//     memory reachable from it and from the arguments), or to unknown
//     memory: the client is unknown code like an unknown external
//     function, and parameters hold what unknown code can reach.
//   - The client may call every function pointer it can reach (functions
//     the library hands out), from any number of threads (a callback
//     spawn at the client's loop).
//   - The client does not write the library's globals by name, and does
//     not write objects it shares with the library while an entry call
//     runs or between calls, except through entry points (the contents of
//     a fresh object are any value when it is made).
//   - A call through a function pointer that may hold a value from unknown
//     code (a client's function, an unknown external's result) calls an
//     unknown function; when points-to shows the pointer holds only
//     functions of the unit, only those are called.
//
// Checks: assertions (__VERIFIER_assert, __CPROVER_assert; the assert
// macros of glibc, musl, the BSDs, Bionic and macOS and "if (!(e))
// abort();", recognized by shape in assert.go: one check of e each, with
// abort an error except in units declaring reach_error, SV-COMP's
// convention; reachable reach_error/__VERIFIER_error and other failure
// calls), array bounds for direct indexing of arrays of known length and
// for pointer registers that can only hold the start of one such array,
// signed overflow of + - * / % and unary minus (in mathematical
// integers), division by zero. Shifts and conversions are not checked.
//
// Frontend (build.go, hostcc.go, linemap.go): Options carry the compile
// command's meaningful flags (include directories by kind in gcc's search
// order, -D/-U in order, forced includes, -std, -pthread); the host
// compiler's predefined macros and system directories come from
// ProbeHost once per probe and process (or HostConfigSource, chorus's disk
// cache); InputDigest covers all of it. Errors in preprocessed input are
// moved to the original file and line through its line markers.
// Constructs lowered to an over-approximation (approx.go: sizeof of a
// variable length type) are stated once per site as notes.
package cfg
