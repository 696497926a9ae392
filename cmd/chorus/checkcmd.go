package main

// chorus check: prove the check sites of C files for any number of threads.
//
//	chorus check [--domain interval|octagon] [--checks assert,bounds,overflow,divzero,shift]
//	             [--data-model ILP32|LP64] [--format text|json|sarif] [--invariants]
//	             [--dot FILE] [--timeout DURATION] [-j N] [--memory SIZE] ...
//	             [--explain FILE:LINE] [--explain-dot FILE] [--html DIR] FILE...
//
// Each file is analysed in a worker process (bulk.go, worker.go). Text
// output: one line per unproven check, "file:line:col: warning: <message>
// [<kind>]", then a summary line "N checks: P proven, U unreachable, W
// unproven". JSON output: see checkJSON in output.go (stable, version 1);
// SARIF: report/sarif. Exit status: 0 when every file is safe, 1 when
// some check is unproven (or a file's analysis did not finish), 2 on a
// usage or input error (other files are still analyzed).

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/confirm"
	"chorus/internal/ccflags"
)

func init() { subcommands["check"] = runCheck }

// checkKindNames maps --checks names to kinds.
var checkKindNames = map[string]cfg.CheckKind{
	"assert":   cfg.AssertCheck,
	"bounds":   cfg.BoundsCheck,
	"overflow": cfg.OverflowCheck,
	"divzero":  cfg.DivByZeroCheck,
	"shift":    cfg.ShiftCheck,
}

// checkOptions are the parsed flags of chorus check.
type checkOptions struct {
	domain     string
	kinds      []cfg.CheckKind
	dataModel  string
	format     string
	invariants bool
	dot        string
	timeout    time.Duration
	maxRounds  int
	confirm    int // --confirm K (confirm.go); 0: off
	// confirmTimeout is --confirm-timeout (0: the default, confirmBudgetFor)
	confirmTimeout time.Duration
	replayDir      string // --replay DIR: violated checks as C programs (confirm.go)
	files          []string
	cc             *ccflags.Flags // the command line's compiler flags (ccargs.go)
	compileDB      string         // -p PATH
	units          []unit         // what to analyse: files with their compiler flags
	notes          []string       // about the units (skipped database entries)
	bulk           bulkOptions    // the run: workers, limits, cache, outputs (bulk.go)
	explain        explainOptions // --explain, --explain-dot (explain.go)
	program        programOptions // --entry, --entry-threads, --link (library.go)
	// phase, when set, is told each phase of checkUnit as it starts
	// ("lowering", "analysis", "confirmation"): a worker passes it to the
	// parent, which names the phase a limit stopped (worker.go).
	phase func(string)

	// proofStates is --explore-proof-states (exploreproof.go): 0 (the
	// zero value, so that tests building options get it) is the default
	// defaultProofStates, negative is off (the flag's 0)
	proofStates int
}

// setPhase tells o.phase that phase p starts.
func (o *checkOptions) setPhase(p string) {
	if o.phase != nil {
		o.phase(p)
	}
}

// parseCheckArgs parses flags and files; flags may follow files, gcc's
// flags may be mixed with chorus's (ccargs.go).
func parseCheckArgs(args []string, stderr io.Writer) (*checkOptions, error) {
	o := &checkOptions{}
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.domain, "domain", "interval", "abstract domain: interval or octagon")
	checks := fs.String("checks", "assert,bounds,overflow,divzero,shift", "check kinds to report (comma-separated): assert, bounds, overflow, divzero, shift")
	fs.StringVar(&o.dataModel, "data-model", "", "ILP32 or LP64 (default: from the SV-COMP task's .yml next to the file, else LP64)")
	fs.StringVar(&o.format, "format", "text", "output format: text, json or sarif (SARIF 2.1.0)")
	fs.BoolVar(&o.invariants, "invariants", false, "print the invariant at every location")
	fs.StringVar(&o.dot, "dot", "", "write the final data flow graph (Graphviz) to this file (one input file only)")
	fs.DurationVar(&o.timeout, "timeout", 0, "per-file analysis time limit (0: none); a file that runs out is unknown")
	fs.IntVar(&o.maxRounds, "max-rounds", 200, "limit on the rounds of the interference loop")
	fs.IntVar(&o.confirm, "confirm", 0, "explore each file with up to K threads per template and report unproven checks that fail as violated, with a schedule (0: off)")
	fs.StringVar(&o.compileDB, "p", "", "compile_commands.json, or a build directory holding one: analyse each C entry with its own compiler flags (with FILEs: their entries)")
	fs.DurationVar(&o.confirmTimeout, "confirm-timeout", 0, "time for --confirm per file (default: 20s, or half of --timeout, and never past --timeout)")
	fs.StringVar(&o.replayDir, "replay", "", "with --confirm, write each violated check's schedule to this directory as a standalone C program that reproduces it (FILE.LINE.COL.c)")
	proofStates := fs.Int("explore-proof-states", defaultProofStates, "when checks stay unproven, explore a finite-state program exhaustively (up to N states) and prove the checks no execution fails (0: off)")
	addBulkFlags(fs, &o.bulk)
	o.explain.register(fs)
	o.program.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: chorus check [flags] [gcc flags: -I -D -U -include -std= -m32 ...] [-p BUILD] [--] FILE...")
		fs.PrintDefaults()
	}
	if err := parseCommandLine(fs, args, o); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fs.Usage()
		}
		return nil, err
	}
	if o.domain != "interval" && o.domain != "octagon" {
		return nil, fmt.Errorf("unknown domain %q (want interval or octagon)", o.domain)
	}
	if o.format != "text" && o.format != "json" && o.format != "sarif" {
		return nil, fmt.Errorf("unknown format %q (want text, json or sarif)", o.format)
	}
	if o.dataModel != "" {
		if _, err := cfg.ParseDataModel(o.dataModel); err != nil {
			return nil, err
		}
	}
	if err := o.explain.validate(); err != nil {
		return nil, err
	}
	if err := o.program.validate(); err != nil {
		return nil, err
	}
	o.linkUnits()
	if o.dot != "" && len(o.units) != 1 {
		return nil, errors.New("--dot needs exactly one input file")
	}
	seen := map[cfg.CheckKind]bool{}
	for _, name := range strings.Split(*checks, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		k, ok := checkKindNames[name]
		if !ok {
			return nil, fmt.Errorf("unknown check kind %q (want assert, bounds, overflow, divzero, shift)", name)
		}
		if !seen[k] {
			seen[k] = true
			o.kinds = append(o.kinds, k)
		}
	}
	if len(o.kinds) == 0 {
		return nil, errors.New("--checks selects no check kind")
	}
	o.proofStates = *proofStates
	if o.proofStates <= 0 {
		o.proofStates = -1 // off
	}
	if o.replayDir != "" {
		o.bulk.noCache = true // a cached result would write no programs
	}
	if err := o.bulk.finish(fs); err != nil {
		return nil, err
	}
	return o, nil
}

// fileOutcome is the result of one file.
type fileOutcome struct {
	file       string
	entry      string // the compile command, when the database compiles the file more than once (unit.entry)
	res        *analysis.Result
	err        error
	inputError bool // usage/input error (exit 2) rather than an unfinished analysis
	elapsed    time.Duration
	violated   map[int]*confirm.Counterexample // by check ID (--confirm)
	explored   map[int]string                  // by check ID: the exploration proof (exploreproof.go)
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	o, err := parseCheckArgs(args, stderr)
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "chorus check: %v\n", err)
		}
		return 2
	}
	return runBulk(o, stdout, stderr)
}

// checkFile lowers and analyzes one file with the command line's compiler
// flags; it never panics.
func checkFile(o *checkOptions, file string) fileOutcome {
	return checkUnit(o, o.unitOf(file))
}

// unitOf is file under the command line's compiler flags.
func (o *checkOptions) unitOf(file string) unit {
	fl := o.cc
	if fl == nil {
		fl = &ccflags.Flags{}
	}
	return unit{file: file, cc: fl}
}

// checkUnit lowers and analyzes one unit; it never panics.
func checkUnit(o *checkOptions, u unit) (out fileOutcome) {
	file := u.file
	out.file, out.entry = file, u.entry
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			out.res = nil
			out.err = fmt.Errorf("%s: internal error: %v\n%s", file, r, debug.Stack())
			out.inputError = true
		}
		out.elapsed = time.Since(start)
	}()
	opts, err := frontendOptions(o, u)
	if err != nil {
		out.err, out.inputError = err, true
		return out
	}
	o.setPhase("lowering")
	prog, err := buildUnit(o, u, opts)
	if err != nil {
		out.err, out.inputError = err, true
		return out
	}
	lowered := time.Since(start)
	ctx := context.Background()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.timeout)
		defer cancel()
	}
	o.setPhase("analysis")
	kept := keepLoweredActions(prog) // the proof and --confirm explore the program as lowered
	defer kept.asAnalysed()
	traceOpts, stopTrace := devTrace()
	res, err := analysis.Analyze(ctx, prog, append([]analysis.Option{
		analysis.WithDomain(o.domain),
		analysis.WithChecks(o.kinds...),
		analysis.WithMaxRounds(o.maxRounds)}, traceOpts...)...)
	stopTrace()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("timed out after %v during the analysis (lowering took %v)", o.timeout, lowered.Round(time.Millisecond))
		}
		out.err = fmt.Errorf("%s: %v", file, err)
		return out
	}
	out.res = res
	rebuild := kept.asLowered
	if states := cmp.Or(o.proofStates, defaultProofStates); states > 0 {
		o.setPhase("exploration proof")
		left := proofWall
		if o.timeout > 0 {
			left = min(left, o.timeout-time.Since(start))
		}
		out.explored, _ = proveUnproven(states, rebuild, res, o.kinds, left) // no proof leaves checks unproven
	}
	if o.confirm > 0 {
		o.setPhase("confirmation")
	}
	out.violated, _ = confirmUnproven(o.confirm, rebuild, res, confirmBudgetFor(o.confirmTimeout, o.timeout, time.Since(start)), o.replayDir) // an unfinished confirmation leaves checks unproven
	return out
}

// frontendOptions are the lowering options of file under o. The result
// cache keys on them too (cache.go): every option that changes what
// BuildFile produces must come from here.
func frontendOptions(o *checkOptions, u unit) (cfg.Options, error) {
	dm, err := dataModelFor(o, u)
	if err != nil {
		return cfg.Options{}, err
	}
	opts := cfg.Options{DataModel: dm}
	applyCC(&opts, u.cc)
	o.program.apply(&opts)
	return opts, nil
}

// dataModelFor picks the data model: --data-model, else the unit's -m32 or
// -m64, else the SV-COMP task definition next to the file, else LP64.
func dataModelFor(o *checkOptions, u unit) (cfg.DataModel, error) {
	file := u.file
	if o.dataModel != "" {
		return cfg.ParseDataModel(o.dataModel)
	}
	if u.cc != nil && u.cc.DataModel != "" {
		return cfg.ParseDataModel(u.cc.DataModel)
	}
	if yml := taskYML(file); yml != "" {
		dm, err := cfg.DataModelFromYML(yml)
		if err != nil {
			return cfg.LP64, fmt.Errorf("%s: %v", yml, err)
		}
		return dm, nil
	}
	return cfg.LP64, nil
}

// taskYML finds the SV-COMP task definition of file: FILE-without-
// extension.yml, else a .yml in the same directory whose input_files name
// the file.
func taskYML(file string) string {
	base := strings.TrimSuffix(file, filepath.Ext(file))
	if st, err := os.Stat(base + ".yml"); err == nil && !st.IsDir() {
		return base + ".yml"
	}
	ymls, _ := filepath.Glob(filepath.Join(filepath.Dir(file), "*.yml"))
	sort.Strings(ymls)
	name := filepath.Base(file)
	for _, y := range ymls {
		data, err := os.ReadFile(y)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "input_files") && (strings.Contains(line, "'"+name+"'") || strings.Contains(line, `"`+name+`"`) || strings.HasSuffix(strings.TrimSpace(line), " "+name)) {
				return y
			}
		}
	}
	return ""
}

func checkWarning(c analysis.CheckResult, r *analysis.Result) string {
	return checkWarningWith(c, r, r.Writes(c))
}

// checkWarningWith is checkWarning with c's interfering writes already
// listed (r.Writes(c)).
func checkWarningWith(c analysis.CheckResult, r *analysis.Result, writes []analysis.Write) string {
	msg := checkCondition(c) // source terms (terms.go)
	if msg == "" {
		msg = c.Check.Kind.String() + " check"
	}
	msg += " not proven"
	detail := r.Invariant(c)
	if msg != c.Check.Msg+" not proven" {
		detail = c.Check.Msg // an error call read as an assertion: say which call
	}
	if d := strings.TrimSuffix(strings.TrimSpace(detail), ":"); d != "" {
		msg += " (" + d + ")"
	}
	if ex := analysis.ExplainWrites(c, writes); ex != "" {
		msg += "; " + ex
	}
	return msg
}

// writeInvariants prints the invariant at every location, per template.
func writeInvariants(w io.Writer, r *analysis.Result) {
	fmt.Fprintf(w, "# invariants of %s\n", r.Program.File)
	for _, t := range r.Program.Templates {
		fmt.Fprintf(w, "template %s:\n", t.Name)
		for _, l := range t.Locs {
			fmt.Fprintf(w, "  %s %d:%d: %s\n", l, l.Pos.Line, l.Pos.Column, r.Solver.At(l))
		}
	}
}

func writeDotFile(path string, r *analysis.Result) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := r.Graph.WriteDot(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
