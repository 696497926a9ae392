// Package interp is the reference interpreter of the cfg IR: the concrete
// semantics the frontend is tested against (differential tests against
// gcc) and the step function the soundness oracle's exhaustive explorer
// builds on.
//
// It owns cfg/interp only; it reads cfg.Program and never changes it,
// and it does no I/O (Output actions become events; Run collects them).
//
// # Model
//
// A State holds the global registers, the memory object instances and the
// threads (template, location, local registers, local object instances,
// atomic-section depth, finished flag). Memory is byte-addressed: an
// instance is a byte slice plus a side table of the pointers stored in it
// (pointers are (instance, offset) pairs; see Value and Instance), loads
// and stores are little-endian with the Deref's width and signedness.
// Global, string and function objects have one instance for the whole
// run, a LocalObject one per thread instance of its template, a heap site
// one per Alloc execution. States share unchanged instances and threads
// (copy on write), so cloning is cheap, and Encode gives a canonical byte
// encoding for visited-state sets.
//
// A transition (Move) is "thread T executes the action of the location it
// stands at and goes to its successor number i": a location with several
// successors is a nondeterministic choice inside the thread, which the
// scheduler makes. Machine.Enabled lists the possible moves (atomic
// sections: while a thread is inside one only it moves; Acquire needs the
// lock word 0; Join needs the target finished; a false Assume blocks),
// Machine.Step executes one and reports an Event (output, failed check,
// runtime error). Moves onto an Assume that is false and reads only the
// thread's own registers are left out (the thread would wait there for
// ever; Options.KeepDeadEnds keeps them); moves onto an Assume that is
// false but reads shared state are marked Waits. Run drives a whole
// execution with a Scheduler (FirstEnabled, RoundRobin, Random(seed),
// Script(phases), Replay(schedule)) and returns the output, the failed
// checks with the schedules reaching them, the termination reason and
// main's exit status.
//
// Options.MaxInstances bounds the instances per spawned template (further
// spawns block), which keeps exhaustive exploration (package explore)
// finite. With Options.LazyStart it bounds the threads of a template
// running at the same time instead: spawned threads wait pending, and of
// the pending threads with the same template and argument only the
// lowest-numbered may start. Thread-local globals (cfg.Var.ThreadLocal)
// are registers of each thread, starting at their initial value. Options.CheckCells makes every memory access verify that the
// Deref's points-to cells cover the concrete location: a runtime soundness
// test of the frontend's points-to analysis. Options.CheckUninit reports
// reads of local registers never written (a frontend bug in a program
// without undefined behaviour).
//
// # Arithmetic
//
// Integers follow C: every Binary/Unary/Cast result is wrapped to its
// Type (two's complement), including signed types — signed overflow is
// undefined in C, and the IR makes it a failed check only where the
// frontend put an OverflowCheck before the location; the operation itself
// wraps. Type MathInt (Bits 0) is unbounded: values that leave int64 use
// math/big, so check conditions never overflow silently. Division by zero
// and shift counts outside [0, width) are runtime errors (undefined in C;
// reported so differential tests notice them); the frontend puts a
// DivByZeroCheck or ShiftCheck before such an operation whose operand is not
// a constant, and a failed check stops the thread first. Floating values are
// float64 bits, enough for printing; the analysis treats them as unknown.
//
// # Simplifications (documented choices)
//
//   - Uninitialized locals, local objects and heap memory read as zero
//     (C: indeterminate); runs are reproducible. A Havoc takes the value
//     given by the caller (Move.Value; Run asks RunOptions.Inputs,
//     default 0).
//   - A failed check stops its thread: the IR says execution continues
//     only where the check held.
//   - A thread terminates when it stands at its template's Exit. At
//     another location without successors (abort, exit, reach_error's
//     check, a failed __VERIFIER_assume) it runs the action once — so a
//     check there is checked — and then halts for good (Thread.Halted),
//     still blocking the others if inside an atomic section. Returning
//     from main does not stop the other threads (the analysis' model),
//     so Run ends when all threads have finished (or nothing can move).
//   - Pointers copied byte by byte lose their provenance (the side table
//     is per stored pointer, not per byte).
//   - Havocs the frontend emits for the effects of unknown external
//     functions on memory it cannot name (a Deref of the address of the
//     "<unknown>" object or of an allocation site) change nothing; a
//     havoc of a summary cell changes only the location its address
//     denotes. A local object of unknown size (a variable length array)
//     gets 4096 bytes. Programs with such modelling assumptions
//     (cfg.Program.Assumptions) are not executed faithfully.
//   - Floating point is float64 arithmetic (float rounds to float32);
//     long double is a float64.
//   - free is not modelled (the frontend lowers it as an unknown call):
//     use after free goes unnoticed.
package interp
