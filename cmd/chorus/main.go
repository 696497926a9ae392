// Command chorus proves properties of multithreaded C programs for any
// number of threads. It owns the command line, files, output formats and
// exit codes; the analysis lives in library packages that do no I/O.
//
//	chorus cfg   [flags] FILE        print the IR or the CFG per thread template
//	chorus check [flags] FILE...     prove the checks of each file
//
// Exit status: 0 success (check: every file safe), 1 some check unproven,
// 2 usage or input error.
package main

import (
	"fmt"
	"io"
	"os"
)

// subcommands maps a subcommand name to its entry point; each returns the
// process exit status. cfgcmd.go and checkcmd.go register theirs.
var subcommands = map[string]func(args []string, stdout, stderr io.Writer) int{}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stderr)
		return 2
	}
	if args[0] == "--version" || args[0] == "-version" || args[0] == "version" {
		writeVersion(stdout)
		return 0
	}
	cmd, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "chorus: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return cmd(args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: chorus <command> [flags] FILE...

commands:
  cfg     print the IR (text) or the CFG per thread template (dot)
  check   prove assertions, array bounds, signed overflow and division checks
          for any number of threads
  merge   combine the SARIF logs of several runs (shards) into one
  version print the version (also: chorus --version)

Run 'chorus <command> -h' for the flags of a command.
`)
}
