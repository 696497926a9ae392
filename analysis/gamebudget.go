package analysis

import (
	"chorus/cfg"
	"chorus/interference"
)

// DefaultMaxPairPositions bounds the game positions of a program whose
// interference is played with position pairs (the exact game, or the
// coarse one); past it the engine plays the flow-insensitive game of
// interference/flat.go from the first round (WithMaxPairPositions).
//
// Why a bound on positions: both pair games first derive pair(A, B) as a
// P×P bit matrix to its fixpoint, which costs P² bits and a multiple of
// P²/64 word operations, and only then find out whether their flows fit
// (the coarse game's flow bound, interference.DefaultMaxCoarseFlows). On
// driver-like programs with more than some ten thousand positions they
// never do: drivergen with 225 handlers (12,176 positions) played the
// exact game, then the coarse one, then fell back to the flow-insensitive
// one; with 900 handlers (about 41,000 positions) the pair matrix alone
// was 60 s of a 65 s run (1.7 G pairs) before the same fallback, while
// 2250 handlers skipped it (the coarse game's memory estimate) and took
// 18 s. The largest corpus program a pair game finishes is aztcd (5,173
// positions, coarse); cdu31a (6,865) finishes the exact game in one
// round. 8,192 leaves room above both.
//
// Soundness: the flow-insensitive game's edges include the coarse game's,
// which include the exact game's (flat.go, coarse.go); the engine already
// falls back to it mid-run, so starting there only loses precision.
const DefaultMaxPairPositions = 8192

// WithMaxPairPositions sets the bound of DefaultMaxPairPositions (n <= 0:
// no bound, the engine's own fallbacks decide alone).
func WithMaxPairPositions(n int) Option { return func(c *config) { c.maxPairPositions = n } }

// newEngine builds the interference engine of p with opts, and rebuilds
// it flow-insensitive when it has more positions than c allows for the
// pair games. (Building the engine is what counts its positions; it is a
// small part of a run of that size: 0.2 of 21 s CPU on drivergen900.)
func newEngine(p *cfg.Program, cells interference.Cells, c *config, opts []interference.Option) (*interference.Engine, error) {
	eng, err := interference.New(p, cells, opts...)
	if err != nil {
		return nil, err
	}
	if c.maxPairPositions <= 0 || eng.FlowInsensitive() || eng.NumPositions() <= c.maxPairPositions {
		return eng, nil
	}
	eng.Close()
	return interference.New(p, cells, append(opts[:len(opts):len(opts)], interference.WithFlowInsensitive())...)
}
