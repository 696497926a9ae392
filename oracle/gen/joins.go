package gen

// Join loops that stop short (Options.Joins).
//
// main spawns some templates in a loop into an array of handles,
// "for (i0 = 0; i0 < K; i0++) pthread_create(&tN[i0], ...)", and joins
// them in a loop with the same bounds: the shape cfg/joinall.go records
// as a join-all, after which the joined threads' writes reach main as
// sequential data flow only. With Options.Joins a join loop stops one
// slot short with probability 1/3 ("i0 < K-1"): the last thread may still
// run after it, so the frontend must not take it for a join-all, and the
// oracle catches an analysis that does (cfg.Options.UnsoundJoinAllBounds).

// varyJoins shortens some of main's join loops.
func (g *generator) varyJoins(fn *Func, spawns []*Spawn) {
	count := map[string]int{}
	for _, s := range spawns {
		count[s.Handle] = s.Count
	}
	for _, st := range fn.Body {
		if j, ok := st.(*Join); ok && count[j.Handle] > 1 && g.r.IntN(3) == 0 {
			j.Upto = count[j.Handle] - 1
		}
	}
}

// joinCount is the number of slots a join loop over a spawn loop of n
// threads joins (Shrink may lower n below Upto).
func joinCount(j *Join, n int) int {
	if j.Upto > 0 && j.Upto < n {
		return j.Upto
	}
	return n
}
