// Package ccflags reads the gcc-compatible part of a command line: the
// flags of a compile command (from the command line of chorus check and
// chorus cfg, or from an entry of compile_commands.json) that change what a
// translation unit means, and the many that do not.
//
// Meaningful flags: -I, -iquote, -isystem, -idirafter (include search),
// -D, -U (macros, in command-line order), -include (forced includes),
// -std=, -ansi, -m32/-m64 (also the data model: ILP32/LP64), -pthread,
// -x (language). Accepted and ignored: optimisation (-O*), warnings (-W*,
// -w, -pedantic*), debug info (-g*), code generation -f flags that do not
// change the meaning of a correct program, machine tuning (-march=, -mtune=,
// -m<feature>), -c, -S, -E, -o FILE, dependency output (-M, -MD, -MMD, -MF
// FILE, -MT X, -MQ X, -MP), -pipe, linker and assembler pass-through
// (-Wl,..., -Wa,..., -Wp,... except -Wp,-D/-U), -l/-L, and the like. Flags
// that change the semantics chorus relies on are rejected with an error
// (-fwrapv and -fno-strict-overflow make signed overflow defined;
// -funsigned-char, -fshort-enums, -fpack-struct change the ABI).
package ccflags

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Macro is one -D (Undef false) or -U operation. Name may carry a
// parameter list ("F(a,b)").
type Macro struct {
	Name  string
	Value string // the replacement list of -DNAME=VALUE; "1" for -DNAME
	Undef bool
}

// Directive is the preprocessor line of the operation.
func (m Macro) Directive() string {
	if m.Undef {
		return "#undef " + m.Name
	}
	return "#define " + m.Name + " " + m.Value
}

// Flags are the meaningful flags of one compile command.
type Flags struct {
	Macros         []Macro  // -D and -U in order
	QuoteDirs      []string // -iquote (for #include "..." only)
	IncludeDirs    []string // -I
	SystemDirs     []string // -isystem
	AfterDirs      []string // -idirafter
	ForcedIncludes []string // -include, in order
	Std            string   // -std= value ("" = the compiler's default); -ansi is c90
	DataModel      string   // "ILP32" (-m32), "LP64" (-m64) or "" (not given)
	Pthread        bool     // -pthread
	Lang           string   // -x LANG in effect for the files ("" = by extension)
	Output         string   // -o FILE
	Ignored        []string // flags accepted and ignored, as given
	Files          []string // non-flag arguments
}

// Error is a flag error (an unknown or unsupported flag, a missing value).
type Error struct {
	Flag string
	Msg  string
}

func (e *Error) Error() string { return e.Flag + ": " + e.Msg }

// kind of a flag's table entry
type kind int

const (
	ignore     kind = iota // no value
	ignoreArg              // takes a value (joined or the next argument), ignored
	ignoreNext             // always takes the next argument
	value                  // handled by a function, value joined or separate
	exact                  // handled by a function, no value
)

type rule struct {
	name string
	kind kind
	// prefix: the flag is a prefix (-O2 for "-O"); else it must match exactly
	// (with a joined value only for value/ignoreArg kinds).
	prefix bool
	set    func(f *Flags, val, dir string) error
}

// dirArg resolves a directory or file argument against dir (the compile's
// working directory) unless it is absolute.
func dirArg(val, dir string) string {
	if val == "" || filepath.IsAbs(val) || dir == "" {
		return val
	}
	return filepath.Join(dir, val)
}

func define(f *Flags, val, _ string) error {
	if val == "" {
		return fmt.Errorf("needs a macro name")
	}
	name, v, ok := strings.Cut(val, "=")
	if !ok {
		v = "1"
	}
	f.Macros = append(f.Macros, Macro{Name: name, Value: v})
	return nil
}

func undef(f *Flags, val, _ string) error {
	if val == "" {
		return fmt.Errorf("needs a macro name")
	}
	f.Macros = append(f.Macros, Macro{Name: val, Undef: true})
	return nil
}

// rules are matched in order; longer names come before their prefixes.
var rules = []rule{
	{name: "-D", kind: value, set: define},
	{name: "-U", kind: value, set: undef},
	{name: "-I", kind: value, set: func(f *Flags, v, d string) error {
		if v == "-" {
			return fmt.Errorf("-I- is not supported (use -iquote)")
		}
		f.IncludeDirs = append(f.IncludeDirs, dirArg(v, d))
		return nil
	}},
	{name: "-iquote", kind: value, set: func(f *Flags, v, d string) error {
		f.QuoteDirs = append(f.QuoteDirs, dirArg(v, d))
		return nil
	}},
	{name: "-isystem", kind: value, set: func(f *Flags, v, d string) error {
		f.SystemDirs = append(f.SystemDirs, dirArg(v, d))
		return nil
	}},
	{name: "-idirafter", kind: value, set: func(f *Flags, v, d string) error {
		f.AfterDirs = append(f.AfterDirs, dirArg(v, d))
		return nil
	}},
	{name: "-include", kind: value, set: func(f *Flags, v, d string) error {
		f.ForcedIncludes = append(f.ForcedIncludes, dirArg(v, d))
		return nil
	}},
	{name: "-imacros", kind: value, set: func(f *Flags, v, d string) error {
		return fmt.Errorf("not supported")
	}},
	{name: "-std=", kind: value, set: func(f *Flags, v, _ string) error {
		if v == "" {
			return fmt.Errorf("needs a standard")
		}
		f.Std = v
		return nil
	}},
	{name: "-ansi", kind: exact, set: func(f *Flags, _, _ string) error { f.Std = "c90"; return nil }},
	{name: "-m32", kind: exact, set: func(f *Flags, _, _ string) error { f.DataModel = "ILP32"; return nil }},
	{name: "-m64", kind: exact, set: func(f *Flags, _, _ string) error { f.DataModel = "LP64"; return nil }},
	{name: "-mx32", kind: exact, set: func(f *Flags, _, _ string) error { return fmt.Errorf("the x32 ABI is not supported") }},
	{name: "-m16", kind: exact, set: func(f *Flags, _, _ string) error { return fmt.Errorf("not supported") }},
	{name: "-pthread", kind: exact, set: func(f *Flags, _, _ string) error { f.Pthread = true; return nil }},
	{name: "-pthreads", kind: exact, set: func(f *Flags, _, _ string) error { f.Pthread = true; return nil }},
	{name: "-x", kind: value, set: func(f *Flags, v, _ string) error {
		if v == "none" {
			v = ""
		}
		f.Lang = v
		return nil
	}},
	{name: "-o", kind: value, set: func(f *Flags, v, d string) error { f.Output = dirArg(v, d); return nil }},
	// -Wp,-DX / -Wp,-UX reach the preprocessor; other -Wp, -Wa, -Wl are
	// pass-through.
	{name: "-Wp,", kind: value, set: func(f *Flags, v, d string) error {
		for _, a := range strings.Split(v, ",") {
			switch {
			case strings.HasPrefix(a, "-D"):
				if err := define(f, a[2:], d); err != nil {
					return err
				}
			case strings.HasPrefix(a, "-U"):
				if err := undef(f, a[2:], d); err != nil {
					return err
				}
			case strings.HasPrefix(a, "-I"):
				f.IncludeDirs = append(f.IncludeDirs, dirArg(a[2:], d))
			default:
				f.Ignored = append(f.Ignored, "-Wp,"+a)
			}
		}
		return nil
	}},
	// Semantics chorus depends on.
	{name: "-fwrapv", kind: exact, set: unsupported("signed overflow wraps under it; chorus assumes C's undefined overflow")},
	{name: "-fno-strict-overflow", kind: exact, set: unsupported("signed overflow wraps under it; chorus assumes C's undefined overflow")},
	{name: "-ftrapv", kind: ignore},
	{name: "-funsigned-char", kind: exact, set: unsupported("chorus uses the ABI's signed char")},
	{name: "-fno-signed-char", kind: exact, set: unsupported("chorus uses the ABI's signed char")},
	{name: "-fsigned-char", kind: ignore},
	{name: "-fno-unsigned-char", kind: ignore},
	{name: "-fshort-enums", kind: exact, set: unsupported("chorus uses the ABI's enum size")},
	{name: "-fshort-wchar", kind: exact, set: unsupported("chorus uses the ABI's wchar_t")},
	{name: "-fpack-struct", kind: exact, prefix: true, set: unsupported("chorus uses the ABI's struct layout")},
	{name: "-fopenmp", kind: exact, prefix: true, set: unsupported("OpenMP pragmas are not analysed")},
	// Accepted and ignored.
	{name: "-MF", kind: ignoreArg},
	{name: "-MT", kind: ignoreArg},
	{name: "-MQ", kind: ignoreArg},
	{name: "-M", kind: ignore, prefix: true}, // -M -MM -MD -MMD -MP -MG
	{name: "-Xlinker", kind: ignoreNext},
	{name: "-Xassembler", kind: ignoreNext},
	{name: "-Xpreprocessor", kind: ignoreNext},
	{name: "-L", kind: ignoreArg},
	{name: "-l", kind: ignoreArg},
	{name: "-B", kind: ignoreArg},
	{name: "--param", kind: ignoreNext},
	{name: "--sysroot=", kind: value, set: unsupported("not supported")},
	{name: "-isysroot", kind: value, set: unsupported("not supported")},
	{name: "-O", kind: ignore, prefix: true},
	{name: "-W", kind: ignore, prefix: true}, // -Wall, -Wa,..., -Wl,...
	{name: "-w", kind: ignore},
	{name: "-pedantic", kind: ignore, prefix: true},
	{name: "-g", kind: ignore, prefix: true},
	{name: "-f", kind: ignore, prefix: true},
	{name: "-march=", kind: ignore, prefix: true},
	{name: "-mtune=", kind: ignore, prefix: true},
	{name: "-mcpu=", kind: ignore, prefix: true},
	{name: "-m", kind: ignore, prefix: true}, // -msse4.2, -mavx2, -mno-red-zone, ...
	{name: "-c", kind: ignore},
	{name: "-S", kind: ignore},
	{name: "-E", kind: ignore},
	{name: "-P", kind: ignore},
	{name: "-C", kind: ignore},
	{name: "-H", kind: ignore},
	{name: "-pipe", kind: ignore},
	{name: "-pie", kind: ignore},
	{name: "-no-pie", kind: ignore},
	{name: "-shared", kind: ignore},
	{name: "-static", kind: ignore, prefix: true},
	{name: "-rdynamic", kind: ignore},
	{name: "-s", kind: ignore},
	{name: "-v", kind: ignore},
	{name: "-p", kind: ignore},
	{name: "-pg", kind: ignore},
	{name: "--coverage", kind: ignore},
	{name: "-save-temps", kind: ignore, prefix: true},
	{name: "-dumpbase", kind: ignoreNext},
	{name: "-dumpdir", kind: ignoreNext},
	{name: "-d", kind: ignore, prefix: true}, // -dM -dD -dumpmachine ...
	{name: "-nostdinc", kind: exact, set: unsupported("not supported")},
	{name: "-nostdlib", kind: ignore},
	{name: "-nodefaultlibs", kind: ignore},
	{name: "-nostartfiles", kind: ignore},
}

func unsupported(why string) func(*Flags, string, string) error {
	return func(*Flags, string, string) error { return fmt.Errorf("%s", why) }
}

// Match reports whether arg is a flag of the table (for callers that mix
// their own flags with gcc's) and how many arguments it consumes (1, or 2
// when its value is the next argument).
func Match(arg string) (n int, ok bool) {
	r, joined, found := lookup(arg)
	if !found {
		return 0, false
	}
	switch r.kind {
	case ignoreNext:
		return 2, true
	case value, ignoreArg:
		if joined == "" && !strings.HasSuffix(r.name, "=") && !strings.HasSuffix(r.name, ",") {
			return 2, true
		}
	}
	return 1, true
}

// lookup finds the rule of arg and the value joined to it.
func lookup(arg string) (rule, string, bool) {
	for _, r := range rules {
		switch r.kind {
		case value, ignoreArg:
			if strings.HasPrefix(arg, r.name) {
				return r, arg[len(r.name):], true
			}
		default:
			if arg == r.name || r.prefix && strings.HasPrefix(arg, r.name) {
				return r, "", true
			}
		}
	}
	return rule{}, "", false
}

// Parse reads the flags of a compile command (without the compiler's
// name). Relative directories and files given to flags are resolved
// against dir (the command's working directory; "" leaves them
// relative); non-flag arguments go to Files as given.
func Parse(args []string, dir string) (*Flags, error) {
	f := &Flags{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "" || a[0] != '-' || a == "-" {
			f.Files = append(f.Files, a)
			continue
		}
		r, joined, ok := lookup(a)
		if !ok {
			return nil, &Error{Flag: a, Msg: "unknown flag"}
		}
		switch r.kind {
		case ignore:
			f.Ignored = append(f.Ignored, a)
		case ignoreArg, ignoreNext:
			if r.kind == ignoreNext || joined == "" {
				if i+1 >= len(args) {
					return nil, &Error{Flag: a, Msg: "missing argument"}
				}
				i++
				f.Ignored = append(f.Ignored, a, args[i])
			} else {
				f.Ignored = append(f.Ignored, a)
			}
		case exact:
			if err := r.set(f, "", dir); err != nil {
				return nil, &Error{Flag: a, Msg: err.Error()}
			}
		case value:
			v := joined
			if v == "" && !strings.HasSuffix(r.name, "=") && !strings.HasSuffix(r.name, ",") {
				if i+1 >= len(args) {
					return nil, &Error{Flag: a, Msg: "missing argument"}
				}
				i++
				v = args[i]
			}
			if err := r.set(f, v, dir); err != nil {
				return nil, &Error{Flag: a, Msg: err.Error()}
			}
		}
	}
	return f, nil
}

// Args renders the meaningful flags back as a command line (the ignored
// ones and the files left out): Parse(f.Args(), "") gives the same
// meaningful flags.
func (f *Flags) Args() []string {
	var out []string
	for _, m := range f.Macros {
		if m.Undef {
			out = append(out, "-U"+m.Name)
		} else {
			out = append(out, "-D"+m.Name+"="+m.Value)
		}
	}
	for _, d := range f.QuoteDirs {
		out = append(out, "-iquote", d)
	}
	for _, d := range f.IncludeDirs {
		out = append(out, "-I"+d)
	}
	for _, d := range f.SystemDirs {
		out = append(out, "-isystem", d)
	}
	for _, d := range f.AfterDirs {
		out = append(out, "-idirafter", d)
	}
	for _, inc := range f.ForcedIncludes {
		out = append(out, "-include", inc)
	}
	if f.Std != "" {
		out = append(out, "-std="+f.Std)
	}
	switch f.DataModel {
	case "ILP32":
		out = append(out, "-m32")
	case "LP64":
		out = append(out, "-m64")
	}
	if f.Pthread {
		out = append(out, "-pthread")
	}
	if f.Lang != "" {
		out = append(out, "-x", f.Lang)
	}
	return out
}

// IsC reports whether file is compiled as C under f: by -x, else by its
// extension (.c, .i, .h).
func (f *Flags) IsC(file string) bool {
	switch f.Lang {
	case "c", "c-header", "cpp-output":
		return true
	case "":
	default:
		return false
	}
	switch filepath.Ext(file) {
	case ".c", ".i", ".h":
		return true
	}
	return false
}
