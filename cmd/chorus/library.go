package main

// Program-model flags shared by check and cfg: library entry points
// (cfg/library.go).
//
//	--entry f,g          analyze the unit as a library whose entry points are f and g
//	                     (default without main: every function with external linkage)
//	--entry-threads N    client threads calling entries at once: 0 any number, 1 one
//	--link               the files (or every entry of -p's database) are one program
//	                     (cfg/link.go), named by the files joined with " + "; it is
//	                     analysed in a worker like a file (its members' flags passed
//	                     in CHORUS_WORKER_LINK_FLAGS) and not cached

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"chorus/cfg"
)

type programOptions struct {
	entries      string
	entryThreads int
	link         bool
}

func (p *programOptions) register(fs *flag.FlagSet) {
	fs.StringVar(&p.entries, "entry", "", "comma-separated entry points: analyze the file as a library whose most general client calls them (default without main: every function with external linkage)")
	fs.BoolVar(&p.link, "link", false, "treat the files (or the compile database's entries) as one program, as the linker would: external linkage across files, static per file")
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

// linkUnits makes the units of o one linked unit (--link), keeping each
// file's compiler flags (a compile database's entries keep theirs).
func (o *checkOptions) linkUnits() {
	if !o.program.link || len(o.units) < 2 {
		return
	}
	// A file the database compiles more than once (memcached.c, for two
	// programs with different flags) is linked once, with its first
	// entry's flags: the other entries belong to another program.
	var files []string
	var members []unit
	first := map[string]string{}
	for _, u := range o.units {
		if e, dup := first[u.file]; dup {
			o.notes = append(o.notes, fmt.Sprintf("%s: note: --link: compiled by several entries; linked once, with the flags of the first (%s), not of %s", u.file, e, u.entry))
			continue
		}
		first[u.file] = u.entry
		files = append(files, u.file)
		members = append(members, u)
	}
	if len(members) < 2 {
		o.units = members
		return
	}
	o.units = []unit{{file: cfg.LinkedName(files), cc: members[0].cc, members: members}}
	o.files = []string{o.units[0].file}
}

// buildUnit lowers a unit: a file, or the members of a linked unit.
func buildUnit(o *checkOptions, u unit, opts cfg.Options) (*cfg.Program, error) {
	if len(u.members) == 0 {
		return cfg.BuildFile(u.file, opts)
	}
	var files []string
	var all []cfg.Options
	for i, m := range u.members {
		mo, err := frontendOptions(o, m)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			mo = opts
		}
		files = append(files, m.file)
		all = append(all, mo)
	}
	return cfg.BuildLinked(files, all)
}
