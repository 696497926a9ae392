package explore

import "testing"

// BenchmarkExploreCounter measures states per second on the lost-update
// program (run with -bench; timings are not asserted anywhere).
func BenchmarkExploreCounter(b *testing.B) {
	p, _, _ := counter(false)
	states := 0
	for b.Loop() {
		res, err := Explore(p, Options{})
		if err != nil {
			b.Fatal(err)
		}
		states += res.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}
