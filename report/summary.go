package report

// KindCounts are the counts of one check kind over a run.
type KindCounts struct {
	Checks, Proven, Unreachable, Unproven, Violated, Suppressed int
}

// Summary aggregates a run.
type Summary struct {
	ByKind map[string]*KindCounts
	// Files: all files. Analysed: the analysis finished. Unknown: it did
	// not (time, memory, rounds, crash). Failed: input errors.
	Files, Analysed, Unknown, Failed int
	Cached                           int   // served from the result cache
	Baseline                         int   // open results hidden because the baseline has them
	UnusedIgnores                    int   // ignore comments that suppressed nothing
	CPUMS                            int64 // CPU time of the analyses (not of cached files)
}

// Summarize counts files and checks. A suppressed check counts as
// suppressed, not as unproven or violated; one in the baseline counts
// where its status says, and in Baseline.
func Summarize(files []File) Summary {
	s := Summary{ByKind: map[string]*KindCounts{}}
	for _, k := range Kinds {
		s.ByKind[k] = &KindCounts{}
	}
	for _, f := range files {
		s.Files++
		switch {
		case f.Failure == FailInput:
			s.Failed++
		case f.Error != "":
			s.Unknown++
		default:
			s.Analysed++
		}
		if f.Cached {
			s.Cached++
		}
		s.CPUMS += f.CPUMS
		s.UnusedIgnores += len(f.UnusedIgnores)
		for _, c := range f.Checks {
			kc := s.ByKind[c.Kind]
			if kc == nil {
				kc = &KindCounts{}
				s.ByKind[c.Kind] = kc
			}
			kc.Checks++
			if c.InBaseline {
				s.Baseline++
			}
			switch {
			case c.Suppressed != nil:
				kc.Suppressed++
			case c.Status == Proven:
				kc.Proven++
			case c.Status == Unreachable:
				kc.Unreachable++
			case c.Status == Violated:
				kc.Violated++
			default:
				kc.Unproven++
			}
		}
	}
	return s
}

// Total sums the counts over kinds.
func (s Summary) Total() KindCounts {
	var t KindCounts
	for _, k := range s.ByKind {
		t.Checks += k.Checks
		t.Proven += k.Proven
		t.Unreachable += k.Unreachable
		t.Unproven += k.Unproven
		t.Violated += k.Violated
		t.Suppressed += k.Suppressed
	}
	return t
}
