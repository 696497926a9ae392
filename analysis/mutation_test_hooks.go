package analysis

// Deliberate breakages for the soundness oracle's mutation tests
// (oracle.DropInterference): they make the analysis unsound on purpose,
// to show that the oracle notices. Never use them for results.

// mutationHooks holds the breakages selected by the options below.
type mutationHooks struct {
	noInterference bool
}

// WithoutInterference is UNSOUND, for testing the oracle only: the outer
// loop stops after the first, sequential solve, so no interference edge
// is ever added and every thread is analyzed as if it ran alone.
func WithoutInterference() Option { return func(c *config) { c.mutation.noInterference = true } }
