// Package gen generates random small concurrent C programs for the soundness
// oracle (DESIGN.md §6), and shrinks a failing one to a small one.
//
// It owns oracle/gen only and does no I/O: Generate builds a Prog, Prog.C
// prints it, Shrink reduces it; running chorus and the explorer on the
// program is the caller's business.
//
// # Program shape
//
// Generate(seed, opts) is deterministic (PCG seeded by seed). A program has
//   - globals g0.. (small initial values), mutexes m0.. (global
//     pthread_mutex_t, optionally pthread_mutex_init'ed at the start of main);
//   - thread templates thr0.. (void *thrN(void *arg)) and main, each with
//     locals l0.. (initialized); variables are int or, one in five,
//     unsigned char starting near 0 or 255, so stores wrap around;
//   - some templates take an int global's address: they start with
//     "int *a = (int *)arg;" and read and write *a, and each of their spawns
//     passes &g for some int global g;
//   - main: statements, one spawn of every template (some as a bounded loop
//     "for (i0 = 0; i0 < K; i0++) pthread_create(&tN[i0], ...)"), more
//     statements, joins of some of the spawns, statements, assertions;
//   - a thread may spawn (and maybe join) a later template, so there is no
//     recursion and Instances() bounds the instances of each template; the
//     total stays within Options.MaxInstances.
//
// Statements: assignments, nondet locals ("l = __VERIFIER_nondet_int();"
// immediately followed by "__VERIFIER_assume(lo <= l && l <= hi);"),
// assumes over globals, assertions (__VERIFIER_assert(c), assert(c) in
// glibc's expansion "((c) ? (void)0 : __assert_fail(...))", or
// "if (!(c)) reach_error();"), if/else, for loops with constant bounds (a
// counter per nesting depth that nothing else reads), lock/unlock pairs
// (sometimes through a local "pthread_mutex_t *p_m = &m;"; never nesting the
// same mutex, so no self-deadlock), and __VERIFIER_atomic_begin/end sections
// (no locks, spawns or joins inside; one touching only globals may instead
// be a function __VERIFIER_atomic_aN called in its place), and
// read-modify-writes "l = g; g = l + c; __VERIFIER_assert(g OP l);" under
// a mutex or alone (a thread's locals related with globals; every other
// one under a mutex asserts after the unlock, where only a global that
// moves one way keeps the relation: analysis/monotone.go). Half of the
// programs with a mutex guard their last global: it is written only while
// the first mutex is held (a lock-protected global). Spawns and joins stand only at the top
// level of a function, a join after its spawn, so every join has a thread to
// wait for. Assertion conditions compare variables with constants slightly
// beyond the value range, or two variables, so some hold and some fail.
//
// With Options.Calls, helpers "int hN(int p0, ...)" come first: locals, a
// block without locks (a caller may hold any mutex), spawns or joins, and
// calls of earlier helpers only (no recursion), then "return e;". Main, the
// threads and later helpers call them with varying arguments ("x =
// hN(y, z + c);" or the call alone), inside locks and atomic sections too.
// MaxSteps counts a call as its helper's body plus two steps.
//
// With Prog.CustomLocks (seeds ≡ 3 mod 4 with mutexes, decided without a
// draw), the mutexes are int words locked by __VERIFIER_atomic_acquire_M()
// / __VERIFIER_atomic_release_M() (through a pointer: ..._p(p_M)), the
// SV-COMP idiom cfg/atomiclock.go lowers as acquire/release; the oracle
// explores the program built without that rewrite as ground truth.
//
// The C is self-contained: pthread types and functions and the
// __VERIFIER_* functions are declared at the top without #include.
//
// # Small values, no overflow
//
// Right-hand sides are c, y, y+c, y-c (|c| <= MaxConst) or (y+z)%M,
// (y-z)%M, (y*c)%M with M = Modulus. A % result is below M; the other forms
// add at most MaxConst per executed statement, and every run executes at
// most MaxSteps() statements (bounded loops, bounded instances), so
// MaxMagnitude() bounds every value and intermediate result; tests check it
// is far below 2^31. With Options.AllowOverflow, unreduced y*z and
// y+2147483000 appear too, and signed overflow becomes possible.
// NondetRange() tells an explorer which havoc values to enumerate.
//
// With Options.Joins, a join loop of main sometimes stops one slot short
// of its spawn loop (joins.go), so the oracle sees both join loops the
// frontend records as join-alls (cfg/joinall.go) and ones it must refuse.
//
// # Open programs
//
// GenerateOpen (open.go) makes a library without main (entries "void
// eN(int p)") or a main handing callbacks to an undefined external
// "ext_submit", together with one closed completion appended after its
// text (a concrete client, or a body of the external): see open.go.
//
// # Shrinking
//
// Shrink is greedy delta debugging over threads, statements, compound
// statements, bounds, expressions and declarations; see its comment.
package gen
