// Package sarif renders a chorus check run (package report) as SARIF 2.1.0
// (OASIS), merges the SARIF logs of several runs (shards) into one, and
// reads the fingerprints of a baseline log. It owns the SARIF shape of
// chorus's results: one rule per check kind, a result per open or
// suppressed check, file errors as tool execution notifications. The
// object model is github.com/owenrumney/go-sarif/v2.
//
// The output is deterministic (no timestamps, no command line, results in
// file order), so that runs with different worker counts, and a merge of
// shards, are byte-identical to one run over all files.
package sarif

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"chorus/report"
)

// FingerprintKey is the partialFingerprints key of chorus results.
const FingerprintKey = "chorus/v1"

// Rule describes one rule.
type Rule struct {
	ID, Kind, Name, Short, Full string
}

// Rules are chorus's rules, in ruleIndex order.
var Rules = []Rule{
	{"chorus.assert", report.KindAssert, "Assertion",
		"Assertion not proven for every number of threads",
		"An assertion (assert, __VERIFIER_assert, a reachable reach_error or __assert_fail) that chorus could not prove to hold in every execution, for any number of threads. The message gives the invariant chorus found at the site and the writes of other threads that reach it; a 'violated' result comes with a schedule that fails it."},
	{"chorus.array-bounds", report.KindBounds, "ArrayBounds",
		"Array index not proven within bounds",
		"An array access whose index chorus could not prove to lie within the array's bounds in every execution, for any number of threads."},
	{"chorus.signed-overflow", report.KindOverflow, "SignedOverflow",
		"Signed arithmetic not proven free of overflow",
		"A signed integer operation that chorus could not prove free of overflow (undefined behaviour in C) in every execution, for any number of threads."},
	{"chorus.div-by-zero", report.KindDivZero, "DivisionByZero",
		"Divisor not proven non-zero",
		"A division or remainder whose divisor chorus could not prove non-zero in every execution, for any number of threads."},
	{"chorus.shift-count", report.KindShift, "ShiftCount",
		"Shift count not proven within the operand's width",
		"A shift (<<, >>, <<=, >>=) whose count chorus could not prove to lie in [0, width of the promoted left operand) in every execution, for any number of threads: a negative count or one of at least the width is undefined behaviour in C."},
	{"chorus.unused-ignore", "", "UnusedIgnore",
		"Ignore comment suppresses nothing",
		"A '// chorus:ignore[kind,...] reason' comment that suppressed no check of the kinds it names on its line or the next (reported with --strict-ignores): the check it was written for is proven now, or moved."},
}

// ruleIndex maps a rule ID to its index.
var ruleIndex = func() map[string]int {
	m := map[string]int{}
	for i, r := range Rules {
		m[r.ID] = i
	}
	return m
}()

// RuleFor is the rule ID of a check kind.
func RuleFor(kind string) string { return "chorus." + kind }

// Options of a SARIF log.
type Options struct {
	Version string // chorus version (tool.driver.version)
	// Baseline: results were filtered against a baseline; reported
	// results get baselineState "new".
	Baseline bool
	// StrictIgnores: report unused ignore comments as results.
	StrictIgnores bool
}

// Build renders files (sorted by name, as chorus check sorts them) as one
// SARIF run. Reported results: every failing check that is not in the
// baseline, suppressed ones with their suppression.
func Build(files []report.File, o Options) *gosarif.Report {
	log := &gosarif.Report{Version: string(gosarif.Version210), Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []*gosarif.Run{}}
	run := gosarif.NewRun(tool(o.Version))
	inv := &gosarif.Invocation{ExecutionSuccessful: boolp(true)}
	for _, f := range files {
		target := artifact(f.File)
		for _, c := range f.Checks {
			if !c.Failing() || c.InBaseline {
				continue
			}
			run.Results = append(run.Results, result(c, target, o))
		}
		if o.StrictIgnores {
			for _, ig := range f.UnusedIgnores {
				run.Results = append(run.Results, unusedIgnore(ig, target))
			}
		}
		if f.Error != "" {
			inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, notification(f))
		}
	}
	run.Invocations = []*gosarif.Invocation{inv}
	log.Runs = append(log.Runs, run)
	return log
}

func tool(version string) gosarif.Tool {
	d := &gosarif.ToolComponent{Name: "chorus", Rules: []*gosarif.ReportingDescriptor{}}
	if version != "" {
		d.Version = strp(version)
	}
	d.InformationURI = nil
	for _, r := range Rules {
		level := "warning"
		d.Rules = append(d.Rules, &gosarif.ReportingDescriptor{
			ID: r.ID, Name: strp(r.Name),
			ShortDescription:     &gosarif.MultiformatMessageString{Text: strp(r.Short)},
			FullDescription:      &gosarif.MultiformatMessageString{Text: strp(r.Full)},
			Help:                 &gosarif.MultiformatMessageString{Text: strp(r.Full + " Suppress a reviewed result with '// chorus:ignore[" + ignoreName(r) + "] reason' on its line or the line above.")},
			DefaultConfiguration: &gosarif.ReportingConfiguration{Level: level},
			Properties:           gosarif.Properties{"tags": []string{"correctness", "concurrency"}},
		})
	}
	return gosarif.Tool{Driver: d}
}

func ignoreName(r Rule) string {
	if r.Kind == "" {
		return "kind"
	}
	return r.Kind
}

func result(c report.Check, target *gosarif.ArtifactLocation, o Options) *gosarif.Result {
	id := RuleFor(c.Kind)
	res := gosarif.NewRuleResult(id)
	if i, ok := ruleIndex[id]; ok {
		u := uint(i)
		res.RuleIndex = &u
	}
	level := "warning"
	text := c.Message
	if c.Status == report.Violated {
		level = "error"
		text = c.Condition + " violated"
		if c.Condition == "" {
			text = c.Kind + " check violated"
		}
		if c.Invariant != "" {
			text += " (" + c.Invariant + ")"
		}
	}
	res.Level = &level
	res.Kind = strp("fail")
	res.Message = gosarif.Message{Text: strp(text)}
	res.Locations = []*gosarif.Location{location(c.File, c.Line, c.Column, "", c.Function)}
	res.AnalysisTarget = target
	if c.Fingerprint != "" {
		res.PartialFingerprints = map[string]interface{}{FingerprintKey: c.Fingerprint}
	}
	props := gosarif.Properties{"status": c.Status}
	if c.Invariant != "" {
		props["invariant"] = c.Invariant
	}
	if c.Condition != "" {
		props["condition"] = c.Condition
	}
	if len(c.Writes) > 0 {
		props["interferingWrites"] = len(c.Writes)
	}
	res.Properties = props
	for i, w := range c.Writes {
		msg := w.Variable + " written by another thread"
		if w.Value != "" {
			msg += " (value " + w.Value + ")"
		}
		loc := location(w.File, w.Line, w.Column, msg, "")
		id := uint(i + 1)
		loc.Id = &id
		res.RelatedLocations = append(res.RelatedLocations, loc)
	}
	if len(c.Schedule) > 0 {
		res.CodeFlows = []*gosarif.CodeFlow{codeFlow(c)}
	}
	if c.Suppressed != nil {
		ig := c.Suppressed
		reason := ig.Reason
		if reason == "" {
			reason = "(no reason given)"
		}
		res.Suppressions = []*gosarif.Suppression{{
			Kind: "inSource", Status: strp("accepted"), Justification: strp(reason),
			Location: location(ig.File, ig.Line, 1, "", ""),
			Guid:     strp(guid(c.Fingerprint + "/suppression")),
		}}
	}
	if o.Baseline {
		res.BaselineState = strp("new")
	}
	return res
}

// codeFlow renders a violated check's schedule: one threadFlow per
// thread, each step with its place in the global order (executionOrder).
func codeFlow(c report.Check) *gosarif.CodeFlow {
	byThread := map[int]*gosarif.ThreadFlow{}
	var threads []int
	for i, s := range c.Schedule {
		tf := byThread[s.Thread]
		if tf == nil {
			tf = &gosarif.ThreadFlow{ID: strp("T" + strconv.Itoa(s.Thread)), Locations: []*gosarif.ThreadFlowLocation{},
				Message: &gosarif.Message{Text: strp(fmt.Sprintf("thread %d", s.Thread))}}
			byThread[s.Thread] = tf
			threads = append(threads, s.Thread)
		}
		msg := fmt.Sprintf("step %d: thread %d", i+1, s.Thread)
		if s.Value != nil {
			msg += fmt.Sprintf(" (nondeterministic value %d)", *s.Value)
		}
		order := i + 1
		tf.Locations = append(tf.Locations, &gosarif.ThreadFlowLocation{
			ExecutionOrder: &order,
			Location:       location(s.File, s.Line, s.Column, msg, ""),
		})
	}
	sort.Ints(threads)
	cf := &gosarif.CodeFlow{Message: &gosarif.Message{Text: strp("a schedule of the threads that fails the check")}}
	for _, t := range threads {
		cf.ThreadFlows = append(cf.ThreadFlows, byThread[t])
	}
	return cf
}

func unusedIgnore(ig report.Ignore, target *gosarif.ArtifactLocation) *gosarif.Result {
	id := "chorus.unused-ignore"
	res := gosarif.NewRuleResult(id)
	u := uint(ruleIndex[id])
	res.RuleIndex = &u
	res.Level = strp("warning")
	res.Kind = strp("fail")
	msg := fmt.Sprintf("chorus:ignore[%s] suppresses nothing", strings.Join(ig.Kinds, ","))
	if len(ig.Bad) > 0 {
		msg += fmt.Sprintf(" (unknown kinds: %s)", strings.Join(ig.Bad, ", "))
	}
	res.Message = gosarif.Message{Text: strp(msg)}
	res.Locations = []*gosarif.Location{location(ig.File, ig.Line, 1, "", "")}
	res.AnalysisTarget = target
	h := sha256.Sum256([]byte("unused-ignore\x00" + ig.File + "\x00" + strings.Join(ig.Kinds, ",") + "\x00" + ig.Reason))
	res.PartialFingerprints = map[string]interface{}{FingerprintKey: hex.EncodeToString(h[:])[:32]}
	return res
}

// errorPos matches "file:line:col: error:" at the start of an error.
var errorPos = regexp.MustCompile(`^(.+?):(\d+):(\d+): `)

func notification(f report.File) *gosarif.Notification {
	level := "error"
	if f.Failure != report.FailInput {
		level = "warning" // the file is unknown, not broken
	}
	msg := f.Error
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	n := &gosarif.Notification{Level: level, Message: &gosarif.Message{Text: strp(msg)}}
	if m := errorPos.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		n.Locations = []*gosarif.Location{location(m[1], line, col, "", "")}
	} else {
		n.Locations = []*gosarif.Location{{PhysicalLocation: &gosarif.PhysicalLocation{ArtifactLocation: artifact(f.File)}}}
	}
	n.Descriptor = &gosarif.ReportingDescriptorReference{Id: strp("chorus.file-" + failureName(f.Failure))}
	n.Properties = gosarif.Properties{"file": f.File, "failure": f.Failure}
	return n
}

func failureName(f string) string {
	if f == "" {
		return report.FailLimit
	}
	return f
}

func location(file string, line, col int, msg, function string) *gosarif.Location {
	loc := &gosarif.Location{PhysicalLocation: &gosarif.PhysicalLocation{ArtifactLocation: artifact(file)}}
	if line > 0 {
		r := &gosarif.Region{StartLine: intp(line)}
		if col > 0 {
			r.StartColumn = intp(col)
		}
		loc.PhysicalLocation.Region = r
	}
	if msg != "" {
		loc.Message = &gosarif.Message{Text: strp(msg)}
	}
	if function != "" {
		loc.LogicalLocations = []*gosarif.LogicalLocation{{Name: strp(function), Kind: strp("function")}}
	}
	return loc
}

// artifact is a file's location: its path as a URI reference (slashes,
// percent-encoded), relative as chorus was given it.
func artifact(file string) *gosarif.ArtifactLocation {
	u := url.URL{Path: filepath.ToSlash(file)}
	return &gosarif.ArtifactLocation{URI: strp(u.String())}
}

// guid formats a hash of s as a version-4-shaped GUID (deterministic).
func guid(s string) string {
	h := sha256.Sum256([]byte(s))
	x := hex.EncodeToString(h[:16])
	return x[0:8] + "-" + x[8:12] + "-4" + x[13:16] + "-a" + x[17:20] + "-" + x[20:32]
}

// Write writes log as indented JSON with a final newline.
func Write(w io.Writer, log *gosarif.Report) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(log); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// Read parses a SARIF log.
func Read(data []byte) (*gosarif.Report, error) {
	log, err := gosarif.FromBytes(data)
	if err != nil {
		return nil, err
	}
	if log.Version != string(gosarif.Version210) {
		return nil, fmt.Errorf("SARIF version %q, want 2.1.0", log.Version)
	}
	return log, nil
}

// Fingerprints returns the chorus fingerprints of the results of log (a
// baseline).
func Fingerprints(log *gosarif.Report) map[string]bool {
	out := map[string]bool{}
	for _, run := range log.Runs {
		for _, r := range run.Results {
			if fp, ok := r.PartialFingerprints[FingerprintKey].(string); ok {
				out[fp] = true
			}
		}
	}
	return out
}

// Merge combines the runs of several chorus SARIF logs (shards of one
// tree) into one run: the tool of the first, the results ordered by
// analysis target (stable, so each file's results keep their order), one
// invocation with every notification, successful when all were. Merging
// the shards of a tree gives the log of one run over the whole tree.
func Merge(logs []*gosarif.Report) (*gosarif.Report, error) {
	out := &gosarif.Report{Version: string(gosarif.Version210), Schema: "https://json.schemastore.org/sarif-2.1.0.json", Runs: []*gosarif.Run{}}
	var merged *gosarif.Run
	inv := &gosarif.Invocation{ExecutionSuccessful: boolp(true)}
	for _, log := range logs {
		for _, run := range log.Runs {
			if run.Tool.Driver == nil || run.Tool.Driver.Name != "chorus" {
				return nil, fmt.Errorf("not a chorus run (tool %q)", driverName(run))
			}
			if merged == nil {
				merged = gosarif.NewRun(run.Tool)
			} else if v, w := strv(merged.Tool.Driver.Version), strv(run.Tool.Driver.Version); v != w {
				return nil, fmt.Errorf("runs of different chorus versions (%s and %s)", v, w)
			}
			merged.Results = append(merged.Results, run.Results...)
			for _, in := range run.Invocations {
				if in.ExecutionSuccessful != nil && !*in.ExecutionSuccessful {
					inv.ExecutionSuccessful = boolp(false)
				}
				inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, in.ToolExecutionNotifications...)
			}
		}
	}
	if merged == nil {
		merged = gosarif.NewRun(tool(""))
	}
	sort.SliceStable(merged.Results, func(i, j int) bool {
		return targetOf(merged.Results[i]) < targetOf(merged.Results[j])
	})
	sort.SliceStable(inv.ToolExecutionNotifications, func(i, j int) bool {
		return notifFile(inv.ToolExecutionNotifications[i]) < notifFile(inv.ToolExecutionNotifications[j])
	})
	merged.Invocations = []*gosarif.Invocation{inv}
	out.Runs = append(out.Runs, merged)
	return out, nil
}

func driverName(run *gosarif.Run) string {
	if run.Tool.Driver == nil {
		return ""
	}
	return run.Tool.Driver.Name
}

// targetOf is the analysed file of a result, as chorus check sorts files.
func targetOf(r *gosarif.Result) string {
	if r.AnalysisTarget != nil && r.AnalysisTarget.URI != nil {
		if p, err := url.PathUnescape(*r.AnalysisTarget.URI); err == nil {
			return p
		}
		return *r.AnalysisTarget.URI
	}
	return ""
}

func notifFile(n *gosarif.Notification) string {
	if f, ok := n.Properties["file"].(string); ok {
		return f
	}
	return ""
}

func strp(s string) *string { return &s }
func intp(i int) *int       { return &i }
func boolp(b bool) *bool    { return &b }
func strv(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
