package main

// chorus cfg: print the lowered program.
//
//	chorus cfg [--data-model ILP32|LP64] [--format text|dot] FILE
//
// Without --data-model the model comes from the SV-COMP task file next to
// FILE (as for chorus check), else LP64.
//
// Text output lists the globals, objects and cells, assumptions, and per
// thread template its locations with actions and successors, then the
// check sites. Dot output has one Graphviz cluster per thread template.
// Exit status: 0 on success, 2 on a usage or input error (reported as
// "file:line:col: error: msg" on stderr).

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"chorus/cfg"
)

func init() { subcommands["cfg"] = runCfg }

func runCfg(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("cfg", flag.ContinueOnError)
	fs.SetOutput(stderr)
	model := fs.String("data-model", "", "ILP32 or LP64 (default: from the SV-COMP task's .yml next to the file, else LP64)")
	format := fs.String("format", "text", "output format: text or dot")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: chorus cfg [--data-model ILP32|LP64] [--format text|dot] FILE")
		fs.PrintDefaults()
	}
	// Flags may also follow the file.
	var files []string
	rest := args
	for {
		if err := fs.Parse(rest); err != nil {
			return 2
		}
		if fs.NArg() == 0 {
			break
		}
		files = append(files, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "chorus cfg: want exactly one FILE")
		fs.Usage()
		return 2
	}
	// Same choice as chorus check (checkcmd.go).
	dm, err := dataModelFor(&checkOptions{dataModel: *model}, files[0])
	if err != nil {
		fmt.Fprintf(stderr, "chorus cfg: %v\n", err)
		return 2
	}
	if *format != "text" && *format != "dot" {
		fmt.Fprintf(stderr, "chorus cfg: unknown format %q (want text or dot)\n", *format)
		return 2
	}
	prog, err := cfg.BuildFile(files[0], cfg.Options{DataModel: dm})
	if err != nil {
		var e *cfg.Error
		if errors.As(err, &e) {
			fmt.Fprintln(stderr, e.Error())
		} else {
			fmt.Fprintf(stderr, "%s: error: %v\n", files[0], err)
		}
		return 2
	}
	if *format == "dot" {
		prog.WriteDot(stdout)
	} else {
		prog.Write(stdout)
	}
	return 0
}
