package oracle

// Open programs (gen.GenerateOpen): a library without main, or a main
// handing callbacks to an external function without a body. chorus
// analyses the open program (its most general client; the external may
// call any callback it receives from any number of threads); the
// explorer runs one closed completion of it (a concrete client, a
// concrete implementation of the external). A check the explorer sees
// failing at a position of the open program's text must not be proven or
// called unreachable by the analysis at every one of that position's
// checks: the completion is one of the behaviours the model must cover.

import (
	"context"
	"fmt"
	"go/token"
	"runtime/debug"

	"chorus/analysis"
	"chorus/cfg"
	"chorus/confirm"
	"chorus/explore"
	"chorus/oracle/gen"
)

// DropUnknownSpawns is a deliberate breakage for the oracle's mutation
// test of open programs: it turns into Skip every spawn whose function is
// not a known address (the callbacks an unknown external or a library's
// client may call) and every spawn of a library's client ("<client>": its
// entry points), as if unknown code never called back and no client
// called the library. Applied before the analysis only.
func DropUnknownSpawns(p *cfg.Program) int {
	n := 0
	for _, l := range p.Locs {
		sp, ok := l.Act.(*cfg.Spawn)
		if !ok {
			continue
		}
		_, known := sp.Fn.(*cfg.AddrOf)
		if known && (l.Template == nil || l.Template.Name != "<client>") {
			continue
		}
		l.Act = &cfg.Skip{}
		n++
	}
	return n
}

// openWho names the unknown code of each kind of open program.
var openWho = map[gen.OpenKind]string{gen.OpenCallback: "external", gen.OpenLibrary: "library's client", gen.OpenHavoc: "external ext_touch"}

// DropAllHavocs is a deliberate breakage for the oracle's mutation test
// of unknown calls' havocs (gen.OpenHavoc, whose open programs have no
// other Havoc): it turns every Havoc into Skip, as if an unknown external
// never wrote what its arguments and the address-taken globals reach.
// Applied before the analysis only.
func DropAllHavocs(p *cfg.Program) int {
	n := 0
	for _, l := range p.Locs {
		if _, ok := l.Act.(*cfg.Havoc); ok {
			l.Act = &cfg.Skip{}
			n++
		}
	}
	return n
}

// CheckOpen compares the analysis of op.Abstract (in every domain of c,
// or domain) with the exploration of op.Concrete. Violations have kind
// "open-check"; a frontend failure of either version is "frontend". It
// never panics.
func (c *Config) CheckOpen(ctx context.Context, op *gen.OpenProg, domain string) (pr ProgramResult) {
	c.defaults()
	seed := op.Seed
	pr.Seed = seed
	defer func() {
		if r := recover(); r != nil {
			pr.Violations = append(pr.Violations, &Violation{Seed: seed, Mutation: c.Mutation, Kind: "crash",
				Detail: fmt.Sprintf("panic: %v\n%s", r, debug.Stack()), Source: op.Concrete})
		}
	}()
	name := fmt.Sprintf("oracle_open_%d.c", seed)
	frontend := func(err error) ProgramResult {
		pr.Complete = true
		pr.Violations = append(pr.Violations, &Violation{Seed: seed, Mutation: c.Mutation, Kind: "frontend", Detail: err.Error(), Source: op.Concrete})
		return pr
	}
	abs, err := lowerWith(name, op.Abstract, cfg.Options{})
	if err != nil {
		return frontend(fmt.Errorf("abstract: %w", err))
	}
	conc, err := lowerWith(name, op.Concrete, cfg.Options{})
	if err != nil {
		return frontend(fmt.Errorf("concrete: %w", err))
	}
	ex, err := confirm.Explore(conc, explore.Options{MaxInstances: c.K, MaxStates: c.MaxStates, Timeout: c.ExploreTimeout, KeepDeadEnds: true})
	if err != nil {
		return frontend(fmt.Errorf("explore: %w", err))
	}
	pr.States, pr.Complete, pr.RuntimeErrors = ex.States, ex.Complete, len(ex.Errors)
	switch c.Mutation {
	case DropCallbacks:
		DropUnknownSpawns(abs)
	case DropHavocs:
		DropAllHavocs(abs)
	}
	type site struct {
		pos  token.Position
		kind cfg.CheckKind
	}
	failing := map[site]bool{}
	var order []site
	for _, f := range ex.Failures {
		chk := f.Event.Check
		if chk == nil || chk.Pos.Line > op.Lines {
			continue
		}
		s := site{chk.Pos, chk.Kind}
		if !failing[s] {
			failing[s] = true
			order = append(order, s)
		}
	}
	domains := c.Domains
	if domain != "" {
		domains = []string{domain}
	}
	for _, dom := range domains {
		actx, cancel := context.WithTimeout(ctx, c.AnalysisTimeout)
		res, err := analysis.Analyze(actx, abs, append([]analysis.Option{analysis.WithDomain(dom)}, c.Analysis...)...)
		cancel()
		if err != nil {
			pr.AnalysisError = dom + ": " + err.Error() // no result, no claim
			continue
		}
		open := map[site]bool{} // some check at the site is neither proven nor unreachable
		present := map[site]bool{}
		for _, cr := range res.Checks {
			s := site{cr.Check.Pos, cr.Check.Kind}
			present[s] = true
			if cr.Status != analysis.Proven && cr.Status != analysis.Unreachable {
				open[s] = true
			}
		}
		for _, s := range order {
			if open[s] {
				continue
			}
			detail := fmt.Sprintf("%s check fails when the %s %s, but every check there is proven or unreachable", s.kind, openWho[op.Kind], op.How)
			if !present[s] {
				detail = fmt.Sprintf("%s check fails when the %s %s, but the open program has no check there", s.kind, openWho[op.Kind], op.How)
			}
			pr.Violations = append(pr.Violations, &Violation{Seed: seed, Domain: dom, Mutation: c.Mutation, Kind: "open-check", Pos: s.pos, Detail: detail, Source: op.Concrete})
		}
	}
	return pr
}
