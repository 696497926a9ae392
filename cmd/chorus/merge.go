package main

// chorus merge a.sarif b.sarif ... > all.sarif: one SARIF log from the
// logs of several chorus check runs, typically the shards (--shard I/N)
// of one tree analysed on several machines. Merging the shards gives the
// same log as one run over the whole tree (report/sarif.Merge).

import (
	"flag"
	"fmt"
	"io"
	"os"

	gosarif "github.com/owenrumney/go-sarif/v2/sarif"

	"chorus/report/sarif"
)

func init() { subcommands["merge"] = runMerge }

func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("output", "", "write the merged log to this file instead of standard output")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: chorus merge [--output FILE] A.sarif B.sarif ...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var logs []*gosarif.Report
	for _, name := range fs.Args() {
		data, err := os.ReadFile(name)
		if err == nil {
			var log *gosarif.Report
			if log, err = sarif.Read(data); err == nil {
				logs = append(logs, log)
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "chorus merge: %s: %v\n", name, err)
			return 2
		}
	}
	merged, err := sarif.Merge(logs)
	if err != nil {
		fmt.Fprintf(stderr, "chorus merge: %v\n", err)
		return 2
	}
	w := stdout
	if *output != "" {
		f, err := os.Create(*output)
		if err != nil {
			fmt.Fprintf(stderr, "chorus merge: %v\n", err)
			return 2
		}
		defer f.Close()
		w = f
	}
	if err := sarif.Write(w, merged); err != nil {
		fmt.Fprintf(stderr, "chorus merge: %v\n", err)
		return 2
	}
	return 0
}
