// Command oracle runs the soundness oracle (package oracle, DESIGN.md §6):
// it generates N random concurrent C programs from seed S, explores each
// with at most K instances per thread template, analyzes each in every
// domain, and reports every analysis claim the explorer contradicts.
//
//	go run ./cmd/oracle -n N -seed S [-k K] [-dir DIR] [-j WORKERS]
//
// The last line printed is
// "programs=N explored_states=M violations=V incomplete=I". Each
// violation is written, shrunk, with its schedule, to a C file under -dir.
// Exit status: 0 without violations, 1 with some, 2 on a usage error.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"chorus/oracle"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("oracle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c oracle.Config
	fs.IntVar(&c.N, "n", 100, "number of programs")
	fs.Int64Var(&c.Seed, "seed", 1, "seed of the first program (program i uses seed+i)")
	fs.IntVar(&c.K, "k", 2, "instances per thread template in the explorer")
	domains := fs.String("domains", "interval,octagon", "abstract domains to check (comma-separated)")
	fs.IntVar(&c.MaxStates, "max-states", 100_000, "state budget per exploration")
	fs.DurationVar(&c.ExploreTimeout, "explore-timeout", 30*time.Second, "time budget per exploration")
	fs.DurationVar(&c.AnalysisTimeout, "analysis-timeout", 20*time.Second, "time budget per analysis")
	shrink := fs.Bool("shrink", true, "shrink violating programs")
	fs.DurationVar(&c.ShrinkBudget, "shrink-budget", 60*time.Second, "time budget per shrink")
	fs.StringVar(&c.Dir, "dir", filepath.Join(os.TempDir(), "chorus-oracle"), "directory for violation files")
	fs.IntVar(&c.Workers, "j", 1, "programs checked in parallel")
	mutation := fs.String("mutation", "none", "break the analysis on purpose to test the oracle: none, drop-interference, atomic-rmw, atomic-critical-sections, no-lock-relays, no-mixed-forget")
	fs.BoolVar(&c.Gen.Joins, "joins", false, "generate join loops that sometimes stop short of their spawn loops (gen.Options.Joins)")
	verbose := fs.Bool("v", false, "print one line per program")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "oracle: unexpected arguments %q\n", fs.Args())
		return 2
	}
	c.Shrink = *shrink
	c.Domains = strings.Split(*domains, ",")
	for _, d := range c.Domains {
		if d != "interval" && d != "octagon" {
			fmt.Fprintf(stderr, "oracle: unknown domain %q\n", d)
			return 2
		}
	}
	switch *mutation {
	case "none":
	case "drop-interference":
		c.Mutation = oracle.DropInterference
	case "atomic-rmw":
		c.Mutation = oracle.AtomicRMW
	case "atomic-critical-sections":
		c.Mutation = oracle.AtomicCriticalSections
	case "no-lock-relays":
		c.Mutation = oracle.NoLockRelays
	case "no-mixed-forget":
		c.Mutation = oracle.NoMixedForget
	default:
		fmt.Fprintf(stderr, "oracle: unknown mutation %q\n", *mutation)
		return 2
	}
	c.Progress = func(pr oracle.ProgramResult) {
		if *verbose {
			fmt.Fprintf(stdout, "seed %d: states=%d views=%d complete=%v violations=%d %s\n",
				pr.Seed, pr.States, pr.Views, pr.Complete, len(pr.Violations), pr.AnalysisError)
		}
		for _, v := range pr.Violations {
			fmt.Fprintf(stdout, "VIOLATION %s\n", v)
			if v.File != "" {
				fmt.Fprintf(stdout, "  written to %s\n", v.File)
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep := oracle.Run(ctx, c)
	fmt.Fprintf(stdout, "time=%v compared_views=%d runtime_errors=%d mutation=%s\n",
		rep.Elapsed.Round(time.Millisecond), rep.ComparedViews, rep.RuntimeErrors, c.Mutation)
	fmt.Fprintln(stdout, rep.Summary())
	if len(rep.Violations) > 0 {
		return 1
	}
	return 0
}
