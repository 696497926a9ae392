package main

// Program-model flags shared by check and cfg: library entry points
// (cfg/library.go).
//
//	--entry f,g          analyze the unit as a library whose entry points are f and g
//	                     (default without main: every function with external linkage)
//	--entry-threads N    client threads calling entries at once: 0 any number, 1 one

import (
	"errors"
	"flag"
	"strings"

	"chorus/cfg"
)

type programOptions struct {
	entries      string
	entryThreads int
}

func (p *programOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&p.entries, "entry", "", "comma-separated entry points: analyze the file as a library whose most general client calls them (default without main: every function with external linkage)")
	fs.IntVar(&p.entryThreads, "entry-threads", 0, "library client threads calling entry points at once: 0 any number, 1 one (a library that is not thread-safe)")
}

func (p *programOptions) validate() error {
	if p.entryThreads != 0 && p.entryThreads != 1 {
		return errors.New("--entry-threads: want 0 (any number) or 1")
	}
	return nil
}

// apply sets the program-model fields of opts.
func (p *programOptions) apply(opts *cfg.Options) {
	for _, e := range strings.Split(p.entries, ",") {
		if e = strings.TrimSpace(e); e != "" {
			opts.Entries = append(opts.Entries, e)
		}
	}
	opts.EntryThreads = p.entryThreads
}
