package main

// The conversion of an in-process outcome (analysis.Result) to the data
// model of package report, which the worker processes send, the cache
// stores and every output format renders.

import (
	"chorus/analysis"
	"chorus/report"
)

// maxWrites bounds the interfering writes listed per check.
const maxWrites = 50

// toReport converts one file's outcome.
func toReport(out fileOutcome) report.File {
	f := report.File{File: out.file, Verdict: "unknown", Checks: []report.Check{}}
	if out.err != nil {
		f.Error = out.err.Error()
		f.Failure = report.FailLimit
		if out.inputError {
			f.Failure = report.FailInput
		}
	}
	if out.res == nil {
		return f
	}
	if prog := out.res.Program; prog != nil {
		for _, a := range prog.Assumptions {
			if a.Note {
				f.Notes = append(f.Notes, report.Note{File: a.Pos.Filename, Line: a.Pos.Line, Column: a.Pos.Column, Message: a.Msg})
			}
		}
	}
	if eng := out.res.Engine; eng != nil {
		if err := eng.Z3Unavailable(); err != nil {
			f.Notes = append(f.Notes, report.Note{File: out.file, Message: z3UnavailableNote(err)})
		}
	}
	for _, c := range out.res.Checks {
		p := c.Check.Pos
		rc := report.Check{
			Kind: c.Check.Kind.String(), File: p.Filename, Line: p.Line, Column: p.Column,
			Function: c.Check.Func, Status: c.Status.String(), Condition: checkCondition(c),
			Message: out.res.Invariant(c), Invariant: out.res.Invariant(c),
		}
		if proof := out.explored[c.Check.ID]; proof != "" && c.Status == analysis.Proven {
			rc.Proof = proof
		}
		if c.Status == analysis.Unproven {
			ws := out.res.Writes(c)
			rc.Message = checkWarningWith(c, out.res, ws)
			if len(ws) > maxWrites {
				// Real code: a check in a library may see thousands of
				// cells written by the client's threads (MBs of JSON).
				ws = ws[:maxWrites]
			}
			for _, w := range ws {
				rc.Writes = append(rc.Writes, report.Write{File: w.Pos.Filename, Line: w.Pos.Line, Column: w.Pos.Column, Variable: w.Var, Value: w.Value})
			}
			if cex := out.violated[c.Check.ID]; cex != nil {
				rc.Status = report.Violated
				for _, s := range scheduleJSON(cex) {
					rc.Schedule = append(rc.Schedule, report.Step{Thread: s.Thread, File: s.File, Line: s.Line, Column: s.Column, Value: s.Value})
				}
			}
		}
		f.Checks = append(f.Checks, rc)
	}
	st := out.res.Stats
	f.Stats = &report.Stats{
		Locations: st.Locations, GamePositions: st.GamePositions,
		Rounds: len(st.Rounds), InterferenceEdges: st.InterferenceEdges,
		MS: out.elapsed.Milliseconds(), Game: st.Game,
	}
	f.Verdict = report.Verdict(&f)
	return f
}

// z3UnavailableNote tells the user that the analysis ran without Z3: still
// sound (every interference condition counted satisfiable) but weaker.
func z3UnavailableNote(err error) string {
	return "Z3 was not available (" + err.Error() + "); interference conditions were not decided, so fewer checks may be proven"
}
