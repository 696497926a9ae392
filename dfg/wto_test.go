package dfg

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestWTOMatchesRecursive: the almost-linear construction gives
// Bourdoncle's recursive order and heads exactly, on random graphs from
// sparse to dense (nested loops, self-loops, unreachable roots, repeated
// successors) and on a deep nest of loops (the shape that made the
// recursion deep).
func TestWTOMatchesRecursive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(name string, succs [][]int32, roots []int32) {
		t.Helper()
		got, gotHead := weakTopoOrder(succs, roots)
		want, wantHead := recursiveWTO(succs, roots)
		if !slices.Equal(got, want) || !slices.Equal(gotHead, wantHead) {
			t.Fatalf("%s: weakTopoOrder %v %v, recursive %v %v", name, got, gotHead, want, wantHead)
		}
	}
	heads := 0
	for trial := range 20000 {
		n := 1 + rng.IntN(12)
		if trial%4 == 0 {
			n = 1 + rng.IntN(200)
		}
		succs := make([][]int32, n)
		deg := rng.Float64() * 3
		for v := range succs {
			for range int(deg) + rng.IntN(2) {
				succs[v] = append(succs[v], int32(rng.IntN(n)))
			}
		}
		roots := []int32{0}
		for range rng.IntN(3) {
			roots = append(roots, int32(rng.IntN(n)))
		}
		check("random", succs, roots)
		_, isHead := weakTopoOrder(succs, roots)
		for _, h := range isHead {
			if h {
				heads++
			}
		}
	}
	if heads == 0 {
		t.Fatal("no random graph had a cycle: the test compares nothing interesting")
	}
	// A nest of 5000 loops: node i enters loop i+1, whose end returns to i.
	const depth = 5000
	succs := make([][]int32, 2*depth)
	for i := range depth - 1 {
		succs[i] = append(succs[i], int32(i+1))
	}
	succs[depth-1] = []int32{int32(depth)}
	for i := depth; i < 2*depth; i++ {
		succs[i] = append(succs[i], int32(2*depth-1-i)) // end of loop i back to its head
		if i+1 < 2*depth {
			succs[i] = append(succs[i], int32(i+1))
		}
	}
	check("nest", succs, []int32{0})
}
