package analysis

import (
	"chorus/dfg"
	"chorus/interference"
)

// Deliberate breakages for the soundness oracle's mutation tests
// (oracle.DropInterference): they make the analysis unsound on purpose,
// to show that the oracle notices. Never use them for results.

// mutationHooks holds the breakages selected by the options below.
type mutationHooks struct {
	noInterference bool
	noLockRelays   bool
	// monotoneUnchecked: WithoutMonotoneCheck.
	monotoneUnchecked bool
	// monotoneAnyTemplate: WithoutMonotoneSingleInstanceCheck.
	monotoneAnyTemplate bool
	// holeJoin: WithoutHoleJoinCheck.
	holeJoin bool
	// diffHoleKeep: WithoutDiffHoleKill.
	diffHoleKeep bool
	// publishUnchecked: WithoutPublishSetterCheck.
	publishUnchecked bool
	// publishOff: withoutPublishRule.
	publishOff bool
	// readerRelayAnyTemplate: WithoutReaderRelayCheck.
	readerRelayAnyTemplate bool
	// flagPathsUnknown: WithoutFlagPathsUnknownCheck.
	flagPathsUnknown bool
	// ownedAnyTemplate: WithoutOwnedInstanceCheck.
	ownedAnyTemplate bool
	// stableAny: WithoutStableGlobalsCheck.
	stableAny bool
}

// WithoutHoleJoinCheck is UNSOUND, for testing the oracle only: while
// Analyze runs, joins keep the disequality holes x != 0 of either operand
// (domains/holes.go) even where the other operand holds 0.
func WithoutHoleJoinCheck() Option { return func(c *config) { c.mutation.holeJoin = true } }

// WithoutDiffHoleKill is UNSOUND, for testing the oracle only: while
// Analyze runs, an octagon assignment x := e keeps the difference holes
// x - y != 0 (domains/diffholes.go) that held before it.
func WithoutDiffHoleKill() Option { return func(c *config) { c.mutation.diffHoleKeep = true } }

// WithoutPublishSetterCheck is UNSOUND, for testing the oracle only: the
// published-initial-value rule (dfg/publish.go) does not check that the
// flag's setters wrote the cell first, so any flag a reader has seen
// makes the cell's initial value stale.
func WithoutPublishSetterCheck() Option {
	return func(c *config) { c.mutation.publishUnchecked = true }
}

// withoutPublishRule is sound (a precision rule switched off, its edges
// kept), for the mutation tests only: on prec_once_reader.c the
// published-initial-value rule (dfg/publish.go) replaces the reader's
// stale edge from program start by edges from the writers of data, among
// them the initializer's data = 0, which the mutation WithoutOnceOwnWrite
// drops from the game's edges; with the rule on, the mutation changes
// nothing there. Likewise on prec_readerkill_late.c: main waits for the
// flag the writer sets after x = 1, so the rule replaces x's initial
// value at main's read by the writer's edges, and the kill mutation
// (WithoutReaderKillDefCheck) has no stale initial value left to expose.
func withoutPublishRule() Option { return func(c *config) { c.mutation.publishOff = true } }

// WithoutInterference is UNSOUND, for testing the oracle only: the outer
// loop stops after the first, sequential solve, so no interference edge
// is ever added and every thread is analyzed as if it ran alone.
func WithoutInterference() Option { return func(c *config) { c.mutation.noInterference = true } }

// WithoutLockRelays is UNSOUND, for testing the oracle only: interference
// edges of lock-protected cells still stay out of critical sections
// (interference/protect.go), and those of joined threads out of main
// after the join (interference/join.go), but the relays after the
// acquires and joins are not installed, so the other threads' writes
// never arrive there.
func WithoutLockRelays() Option { return func(c *config) { c.mutation.noLockRelays = true } }

// WithoutMixedForget is UNSOUND, for testing the oracle only: interference
// edges into mixed cells (dfg/mixed.go) keep the other thread's locals
// instead of forgetting them.
func WithoutMixedForget() Option {
	return func(c *config) { c.solverOpts = append(c.solverOpts, dfg.WithUnsoundMixedJoin()) }
}

// WithoutMonotoneCheck is UNSOUND, for testing the oracle only: the
// candidate monotone globals (monotone.go) are used without checking at
// the fixpoint that every write moves them in their direction.
func WithoutMonotoneCheck() Option { return func(c *config) { c.mutation.monotoneUnchecked = true } }

// WithoutMonotoneSingleInstanceCheck is UNSOUND, for testing the oracle
// only: the per-template monotone globals (monotone.go, dfg.WithMonotoneIn)
// are given to templates with several instances too, so one instance's
// writes pass for the thread's own.
func WithoutMonotoneSingleInstanceCheck() Option {
	return func(c *config) { c.mutation.monotoneAnyTemplate = true }
}

// WithoutCustomReleaseCheck is UNSOUND, for testing the oracle only:
// locks built from atomic sections (cfg/atomiclock.go) count as mutexes
// even where a thread may release one it does not hold.
func WithoutCustomReleaseCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUncheckedCustomReleases())
	}
}

// WithoutSpawnClassCheck is UNSOUND, for testing the oracle only: a spawn
// site on a cycle of main counts as one thread for the join rules
// (interference/join.go), so joining its handle once counts as joining
// every thread it started.
func WithoutSpawnClassCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundJoinClasses())
	}
}

// WithoutJoinRelayIntoThreads is UNSOUND, for testing the oracle only:
// the join relays (interference/join.go) do not enter the threads main
// starts after the join, whose interference edges from the joined thread
// are dropped all the same.
func WithoutJoinRelayIntoThreads() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithoutRelayIntoSpawned())
	}
}

// WithoutJoinAfterFinishedCheck is UNSOUND, for testing the oracle only:
// the join-after rule (interference/join.go) drops main's writes into a
// joinable template wherever main writes, not only where the template
// has finished.
func WithoutJoinAfterFinishedCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithJoinAfterRule(true), interference.WithUnsoundJoinAfterAnywhere())
	}
}

// WithoutCounterLockCheck is UNSOUND, for testing the oracle only: the
// counter bounds (interference/counter.go) leave out every thread that
// holds some lock, not only those holding a lock the reader holds.
func WithoutCounterLockCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundCounterLocks())
	}
}

// WithoutLocalFlagCheck is UNSOUND, for testing the oracle only: the
// path-sensitive must-lockset (interference/lockset.go) tracks global
// variables as trylock flags, as if no other thread could store to them.
func WithoutLocalFlagCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundGlobalFlags())
	}
}

// WithoutReaderRelayCheck is UNSOUND, for testing the oracle only: the
// reader relays (dfg/readrelay.go) take the globals of a mixed cell from
// the other threads and the spawn only, even in a template that writes
// them itself.
func WithoutReaderRelayCheck() Option {
	return func(c *config) { c.mutation.readerRelayAnyTemplate = true }
}

// WithoutOnceOwnWrite is UNSOUND, for testing the oracle only: the epoch
// rule (interference/once.go) takes a reader's observation of the flag
// alone, without its own later write of the cell, as proof that the
// flag's first-epoch writes came before the read.
func WithoutOnceOwnWrite() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundOnceNoOwnWrite())
	}
}

// WithoutOnceLockProtection is UNSOUND, for testing the oracle only: the
// lock argument of the epoch rule (interference/once.go, lockKnown) takes
// a lock held at some write of the flag for one held at all of them.
func WithoutOnceLockProtection() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundOnceNoProtection())
	}
}

// WithoutFlagPathsUnknownCheck is UNSOUND, for testing the oracle only:
// the pruning of flag-infeasible sequential edges (dfg/flagpath.go) also
// ends a path at an assume over flags whose values it does not know.
func WithoutFlagPathsUnknownCheck() Option {
	return func(c *config) { c.mutation.flagPathsUnknown = true }
}

// WithoutReaderKillDefCheck is UNSOUND, for testing the oracle only: the
// reader kills of the interference game (interference/readerkill.go) end
// a flow of every global cell at every position that writes a local
// register, whether or not the position defines the cell, so values
// written before the reader passed it stop short of its later reads.
func WithoutReaderKillDefCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundReaderKills())
	}
}

// WithoutHandoffWriteCheck is UNSOUND, for testing the oracle only: the
// handoff rule (interference/handoff.go) drops main's pre-spawn values of
// a global without checking that the flag's writer writes the global
// before it releases the lock (premise H2).
func WithoutHandoffWriteCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundHandoffs())
	}
}

// WithoutOwnedInstanceCheck is UNSOUND, for testing the oracle only: the
// owned-globals rule (interference/owned.go) lets a template with several
// instances own a global, as if each instance saw only its own writes.
func WithoutOwnedInstanceCheck() Option {
	return func(c *config) { c.mutation.ownedAnyTemplate = true }
}

// WithoutCounterInstanceCheck is UNSOUND, for testing the oracle only:
// the counter bounds (interference/counter.go) count a spawn site on a
// cycle of main as one instance of its template.
func WithoutCounterInstanceCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundCounterInstances())
	}
}

// WithoutStableGlobalsCheck is UNSOUND, for testing the oracle only: the
// interference edges into a mixed cell (dfg/stable.go) keep the reader's
// relations with every global of the cell, whichever templates write it.
func WithoutStableGlobalsCheck() Option { return func(c *config) { c.mutation.stableAny = true } }

// WithoutOneWayCheck is UNSOUND, for testing the oracle only: the facts of
// the one-way flags (interference/oneway.go) are used without checking P1
// (f never returns to its first value) at the fixpoint.
func WithoutOneWayCheck() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundOneWayUnchecked())
	}
}

// WithoutOnceReverseP1 is UNSOUND, for testing the oracle only: the
// reverse epoch rule (interference/once.go, onceReverse) drops edges
// without P1 (f never returns to c0).
func WithoutOnceReverseP1() Option {
	return func(c *config) {
		c.engineOpts = append(c.engineOpts, interference.WithUnsoundOnceReverseNoP1())
	}
}
