package cfg

// Functions the C runtime calls around main.
//
// GCC's constructor attribute makes the startup code call a function
// before main, and its destructor attribute calls one after main returns
// or exit is called. chorus used to ignore both: it proved an assertion
// in main of a global's initial value that a constructor changes, and it
// never looked at a destructor's checks (fixture ctor_dtor.c; gcc's
// binary fails both).
//
// The model: each such function is a thread template spawned once at the
// program's first location, right after InitGlobals (main's entry, or a
// library client's). A thread that may run at any point of main's run
// covers the sequential runs - entirely before main's first statement,
// or after its last - so whatever it writes reaches main's reads through
// interference edges, and it reads whatever main writes. Its checks are
// analyzed like any thread's. What a separate thread does not cover is
// running in main's thread, which shows in thread-local variables (a
// constructor's write to one is main's): these templates run "in the
// caller's thread" like callbacks (tls.go runsInCallersThread), so a
// thread-local variable they mention stays one shared register. Thread
// identity is no issue: pthread_self and pthread_equal return any value
// (builtins.go).

import (
	"sort"
	"strings"
)

// startupFunctions lists the defined functions with a constructor or
// destructor attribute (on the definition or any declaration of them),
// sorted by name.
func (b *builder) startupFunctions() []string {
	var out []string
	for name, fd := range b.funcs {
		a := fd.Declarator.Type().Attributes()
		if a == nil {
			continue
		}
		for _, attr := range []string{"constructor", "__constructor__", "destructor", "__destructor__"} {
			if a.IsAttrSet(attr) {
				out = append(out, name)
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// startupSpawns emits, at the program's first location, one spawn of
// each constructor and destructor function (the model above).
func (b *builder) startupSpawns() {
	fs := b.startupFunctions()
	if len(fs) == 0 {
		return
	}
	// (also fences these runs off from counterexamples: package confirm
	// trusts no execution through a location at an assumption's position)
	b.note("startup", b.pos, "%s: constructor/destructor: analysed as a thread that may run at any point of main's run (C runs it before main starts or after it returns)", strings.Join(fs, ", "))
	for _, name := range fs {
		if name == "main" {
			b.fail("unsupported: main with a constructor or destructor attribute")
		}
		b.startup[name] = true
		t := b.templateFor(name)
		l := b.emit(&Spawn{Fn: &AddrOf{Object: b.funcObject(name), Type: b.ptrType()}, Targets: []*Template{t}})
		b.spawns = append(b.spawns, &spawnSite{loc: l, candidates: []*Template{t}})
	}
}
