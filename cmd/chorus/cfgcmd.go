package main

// chorus cfg: print the lowered program.
//
//	chorus cfg [--data-model ILP32|LP64] [--format text|dot] [gcc flags] [-p BUILD] [--entry f,g] [--entry-threads N] FILE
//
// gcc's flags (-I, -D, -include, -std=, -m32, ...) and -p mean what they
// mean for chorus check (ccargs.go). Without --data-model the model comes
// from -m32/-m64, else the SV-COMP task file next to FILE, else LP64.
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
	o := &checkOptions{}
	fs.StringVar(&o.dataModel, "data-model", "", "ILP32 or LP64 (default: -m32/-m64, else from the SV-COMP task's .yml next to the file, else LP64)")
	format := fs.String("format", "text", "output format: text or dot")
	o.program.register(fs)
	fs.StringVar(&o.compileDB, "p", "", "compile_commands.json, or a build directory holding one: lower FILE with the flags of its (first) entry")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: chorus cfg [--data-model ILP32|LP64] [--format text|dot] [gcc flags] [-p BUILD] [--] FILE")
		fs.PrintDefaults()
	}
	// Flags may also follow the file; gcc's flags mix with chorus's.
	if err := parseCommandLine(fs, args, o); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "chorus cfg: %v\n", err)
			fs.Usage()
		}
		return 2
	}
	for _, n := range o.notes {
		fmt.Fprintln(stderr, n)
	}
	if err := o.program.validate(); err != nil {
		fmt.Fprintf(stderr, "chorus cfg: %v\n", err)
		return 2
	}
	o.linkUnits()
	if len(o.files) == 0 || o.compileDB == "" && len(o.units) != 1 || o.compileDB != "" && len(o.files) > 0 && len(uniq(o.files)) != 1 {
		fmt.Fprintln(stderr, "chorus cfg: want exactly one FILE")
		fs.Usage()
		return 2
	}
	u := o.units[0]
	if *format != "text" && *format != "dot" {
		fmt.Fprintf(stderr, "chorus cfg: unknown format %q (want text or dot)\n", *format)
		return 2
	}
	// Same options as chorus check (checkcmd.go).
	opts, err := frontendOptions(o, u)
	if err != nil {
		fmt.Fprintf(stderr, "chorus cfg: %v\n", err)
		return 2
	}
	prog, err := buildUnit(o, u, opts)
	if err != nil {
		var e *cfg.Error
		if errors.As(err, &e) {
			fmt.Fprintln(stderr, e.Error())
		} else {
			fmt.Fprintf(stderr, "%s: error: %v\n", u.file, err)
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

func uniq(s []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return m
}
