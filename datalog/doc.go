// Package datalog is an embedded, incremental, semi-naive Datalog engine
// with stratified negation. The interference package runs the two-thread
// game of DESIGN.md §4 on it; nothing in it is specific to that use.
//
// It owns only this directory; it does no I/O, prints nothing, and uses no
// other package of chorus.
//
// # Language
//
// Relations have a fixed arity and hold tuples of uint32 values. EDB
// relations get facts from the client (Relation.AddFact); IDB relations
// are defined by rules
//
//	head(X, Y) :- a(X, Z), !b(Z, _), c(Z, Y), X != Y, Z = 3.
//
// with positive atoms, negated atoms, constants, the wildcard _, and
// equality / inequality constraints between terms. Rules are built with
// Program.AddRule or parsed from text (Program.Parse; syntax there).
// Every variable of the head, of a negated atom or of an inequality must
// occur in a positive atom (or be equated to such a variable or to a
// constant): this makes every rule range-restricted, so its result is
// finite and negation is checked against fully bound tuples (wildcards
// aside). Equalities are compiled away by substitution (union-find over
// variables and constants); contradictory constraints make the rule
// derive nothing.
//
// # Strata
//
// The IDB relations are split into the strongly connected components of the
// "head depends on body relation" graph (Tarjan's algorithm, which emits
// them in evaluation order). A negated atom whose relation lies in the same
// component as the head is a negation through recursion: Evaluate rejects
// the program with an error naming the cycle, e.g.
// "lose -> !win2 -> win -> lose". Every other negated relation is complete
// before the stratum reading it runs, so !r(...) is a plain lookup.
//
// # Semi-naive evaluation
//
// A relation's tuples live in one append-only array; a row number never
// changes until the relation is recomputed from scratch. So the semi-naive
// versions of a relation are row ranges, not copies: within one stratum
// iteration, old = rows [0, o), delta = [o, c), full = [0, c), where c is
// the row count when the iteration started. Tuples derived during the
// iteration are appended beyond c, hence invisible to it, and are the next
// iteration's delta. For a rule with positive atoms P1..Pk, iteration i runs
// one variant per atom d whose delta is non-empty: P1..P(d-1) read old,
// Pd reads delta, P(d+1)..Pk read full — the standard decomposition of
// full⋈…⋈full minus old⋈…⋈old, deriving each new combination once. Relations
// of lower strata and EDB relations take part with their own deltas (rows
// added since the previous Evaluate), which is what makes evaluation
// incremental (below).
//
// # Join planning and indexes
//
// Each variant is a nested-loop join planned when its stratum starts: the
// delta atom first (scanned: it is the small, changing part), then
// greedily the atom with the most bound columns — a fully bound atom is a
// membership probe and goes first —, ties to the smaller relation.
// Negations and inequalities run as soon as their variables are bound
// (Program.Explain prints every plan). An
// atom with k bound columns (k < arity) is looked up in an index on exactly
// those columns, built on first use and then maintained on every insert.
//
// Indexes are hash tables whose slots point to the newest row of each key;
// rows of equal key are chained newest-first through a per-row next array,
// so a lookup restricted to rows [lo, hi) skips the few rows appended
// after hi and stops at the first row below lo, and inserting while
// walking a chain is safe. The relation's own duplicate check is an
// open-addressing set of (hash fingerprint, row) entries; tuples are never
// allocated one by one (arity ≤ 2 tuples hash as one packed uint64).
// A github.com/google/btree index is selectable (WithIndexes(BTreeIndexes))
// and was measured against the hash chains (CPU seconds, 2 shared cores):
// transitive closure of 10^5 random edges (1.37·10^7 tuples) 5.6-6.6 s
// with btree vs 2.5-3.3 s with hash; the §4 rules on 2,000 locations
// (4.1·10^7 flow tuples) 45 s / 3.4 GB live heap vs 30-39 s / 2.8-3.3 GB. The btree pays for
// callback iteration, a 16-byte item per row per index and O(log n)
// inserts, and it may not change while iterated, so it must lag one
// iteration behind; the semi-naive row ranges never need ordered scans.
// Hence hash indexes are the default.
//
// Arity-1 and arity-2 relations whose values stay below 4096 (program
// locations, cells, locks) also keep an exact membership bitmap, so the
// probes the §4 rules make most (exec(A, B), !mod(A, X)) hit a small,
// cache-resident bitmap. Head tuples are inserted in batches of 256: one
// pass touches every tuple's hash slot, so the cache misses of a batch
// overlap, then a second pass inserts. golang.org/x/tools/container/intsets
// was considered for these sets and not used: its sparse bitsets answer a
// random membership query by walking a list of blocks, slower than either
// the dense bitmap or the hash set for our access pattern.
//
// # Incremental evaluation
//
// Evaluate remembers each relation's row count at the end of the last
// successful call (lastLen). Adding EDB facts appends rows; the next
// Evaluate treats rows [lastLen, len) of every relation as the first
// iteration's delta, so a stratum continues from its previous fixpoint:
// for positive rules this is exactly the semi-naive step, and it yields
// the same result as recomputation. The new IDB tuples since the last call
// are then simply each relation's rows [lastLen, len) (Result.Added, no
// copying).
//
// Negation breaks monotonicity: when a negated relation has grown, tuples
// derived earlier may no longer hold. Soundness rule (documented, tested):
// a stratum is recomputed from scratch when
//   - a relation it negates has grown since the last successful Evaluate,
//   - a relation it reads (positively or negatively) was itself recomputed
//     in this or an interrupted evaluation (its rows were renumbered, so
//     deltas by row range are meaningless, and it may have lost tuples),
//   - its rules changed (rules may be added between evaluations), or its
//     previous evaluation was interrupted mid-recomputation.
//
// Recomputation is therefore confined to the strata downstream of the
// growth that needs it; the others stay incremental. For a recomputed
// relation the previous contents are kept until the call succeeds, and
// Result.Added / Result.Removed are computed against them. A non-empty
// Removed (the client assumed monotone growth) is reported loudly:
// Evaluate returns the valid Result together with an error wrapping
// ErrRetracted. In the interference rules only atomic, acqHeld (acq,
// holds) and mod are negated; as long as the outer loop only adds compat
// facts (read positively only), its rounds stay incremental.
//
// # Limits and failures
//
// WithMaxTuples(n) bounds the IDB tuples stored; exceeding it stops
// Evaluate with an error wrapping ErrTupleLimit. Evaluate checks ctx
// between iterations and every 65,536 join steps. After an error the IDB
// contents are unspecified (a mix of old and new results) until a later
// Evaluate succeeds; that call redoes the
// interrupted work soundly (rows derived by the interrupted call are
// treated as delta; strata interrupted mid-recomputation recompute again)
// and reports changes relative to the last successful call. A Program is
// not safe for concurrent use; relations and rules may be added between
// evaluations, not during one.
package datalog
