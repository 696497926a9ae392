// Package oracle is the soundness oracle of DESIGN.md §6: it tries, every
// day, to prove chorus wrong on random small concurrent C programs.
//
// It owns oracle/ (not oracle/gen, the generator) and cmd/oracle. It uses
// gen to make programs, cfg to lower them (the whole frontend is
// exercised: the generator emits C), explore for the ground truth and
// analysis for the claims under test. Run writes a file per violation
// (Config.Dir) and prints nothing.
//
// # What is compared
//
// For each program (seed Seed+i), the C source is lowered once and
// explored exhaustively with at most K instances per thread template and
// havoc values in the generator's nondet range (explore.Options with
// KeepDeadEnds, so threads stuck at a false assume are seen too). Then the
// same IR is analyzed in every domain, and:
//
//   - every thread view the explorer records at a location (globals, the
//     thread's locals, non-summary cells) must satisfy the invariant there:
//     each constraint of dfg.State.Constraints() is evaluated exactly on
//     the concrete point (Outside); constraints over variables without a
//     concrete integer value (pointers, floats, summary cells) are skipped;
//   - a location whose invariant is ⊥ must have no view at all;
//   - a check the analysis reports proven or unreachable must not fail in
//     the explorer.
//
// The exploration goes through confirm.Explore, which makes the
// interpreter treat a location without successors other than a
// template's exit (a failed __VERIFIER_assume, abort, reach_error) as a
// place where the thread stays for ever — running its action (so a check
// there can fail) and, inside an atomic section, blocking every other
// thread — as the program model and the analysis do.
//
// The explorer's views are complete only when Result.Complete; an
// incomplete exploration still yields real states (a subset), so the
// comparison stays valid and the program is counted as incomplete.
//
// Analyze rewrites condition loads in place (analysis.WithFusion); the
// comparison uses the unfused IR's views: the fused temporary is dead
// after its assumes, so the analysis claims nothing about it that the
// unfused run could contradict, and every other value is unchanged
// (Lipton reduction, see analysis/fuse.go).
//
// # Violations
//
// A violation is shrunk with gen.Shrink (predicate: the same kind of
// violation in the same domain under the same mutation, within a time
// budget), and written to Config.Dir as a C file whose leading comment
// gives the violation and a shortest schedule reaching it. For a state
// violation the schedule is found by inserting, before the location, a
// check of the violated constraint into a fresh lowering of the shrunk
// program and exploring again (BFS: a shortest schedule).
//
// # Mutations
//
// To show the oracle has teeth, Config.Mutation deliberately breaks the
// analysis (never the exploration):
//
//   - DropInterference stops the outer loop after the sequential solve
//     (analysis.WithoutInterference): caught on many seeds;
//   - AtomicCriticalSections makes every critical section an atomic
//     section (MakeCriticalSectionsAtomic), as if a lock stopped every
//     thread: caught;
//   - NoLockRelays (analysis.WithoutLockRelays) keeps lock-protected
//     cells' interference edges out of critical sections without the
//     relays after the acquires (interference/protect.go), and
//     NoMixedForget (analysis.WithoutMixedForget) keeps the other
//     thread's locals on interference into mixed cells (dfg/mixed.go):
//     both are caught on the fixtures written for them
//     (analysis.TestOracleCatchesMutations); on generated programs they
//     need a protected global read inside a critical section after
//     another thread's write, or two instances racing on a
//     read-modify-write, which random programs rarely combine (not in
//     TestMutations);
//   - DropReturns removes the edges from shared bodies' exits to their
//     return sites (DropReturnEdges), as if calls never returned: caught
//     on programs with calls (gen.Options.Calls; odd seeds lower every
//     helper call to a shared body, see SharesCalls);
//   - the frontend mutation cfg.Options.UnsoundJoinAllBounds takes join
//     loops of other bounds than their spawn loop for join-alls
//     (cfg/joinall.go): caught on testdata/check/join_all_partial.c
//     (analysis.TestOracleCatchesMutations); gen.Options.Joins makes such
//     short join loops, and TestOracleJoins checks that the seeds hold
//     both kinds and no violation;
//   - DropCallbacks (DropUnknownSpawns) turns into Skip the spawns of
//     callbacks an unknown external may call and of a library client's
//     entry points: caught on open programs (TestOpenPrograms, below);
//   - AtomicRMW wraps every read-modify-write "t := g; ...; g := f(t)" in
//     an atomic section (MakeRMWAtomic), as if x++ were atomic. It is NOT
//     caught, and cannot be by state comparison: the invariants are
//     per-thread and non-relational across the local/global boundary (a
//     cell never mixes locals and globals), and every value another thread
//     can write between the read and the write can also be written before
//     the read, so the invariants of the mutated analysis equal the
//     original ones. Lost updates only show in relations between threads'
//     counts, which thread-modular invariants do not express.
//
// # Open programs
//
// CheckOpen (open.go) compares the analysis of an open program of
// gen.GenerateOpen - a library without main, or a main handing callbacks
// to an external function without a body - with the exploration of one
// closed completion of it (a concrete client; an external that calls the
// callback once, twice, in a new thread, or not at all), whose text
// extends the open program's. A check that fails in the completion at a
// position of the open program must not be proven or unreachable at every
// check the analysis has there (violation kind "open-check"). This tests
// the library and callback models themselves, not only the analysis of
// the IR they produce.
package oracle
