package cfg

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing/fstest"

	"chorus/internal/ccflags"

	"modernc.org/cc/v4"
)

// Options configures Build.
type Options struct {
	// DataModel selects ILP32 (cc's linux/386 ABI, gcc -m32 predefined
	// macros) or LP64 (linux/amd64), the default.
	DataModel DataModel
	// The include search (gcc's order): #include "..." looks in the
	// including file's directory, then QuoteDirs (-iquote), IncludeDirs
	// (-I), SystemDirs (-isystem), the host compiler's system directories
	// and AfterDirs (-idirafter); #include <...> skips the first two.
	// Absolute names are opened as they are.
	QuoteDirs, IncludeDirs, SystemDirs, AfterDirs []string
	// Macros are the -D and -U of the command line, applied in order after
	// the host compiler's predefined macros.
	Macros []ccflags.Macro
	// ForcedIncludes (-include) are included, in order, before the first
	// line of the file.
	ForcedIncludes []string
	// Std (-std=) and Pthread (-pthread) select the host compiler's
	// predefined macros (__STDC_VERSION__, _REENTRANT, ...).
	Std     string
	Pthread bool
	// MaxLocs bounds the size of the lowered program (0: DefaultMaxLocs).
	// Calls that would exceed it are summarized soundly (see summarize in
	// call.go) and recorded in Program.Assumptions.
	MaxLocs int
	// ShareAll sends every call of a function that may be shared (not
	// recursive, spawns no thread, not __VERIFIER_atomic_*) to the
	// template's shared body instead of inlining it (tests and the
	// oracle; by default a size policy decides, see shareCall).
	ShareAll bool
	// NoAtomicLocks keeps locks built from atomic sections as they are
	// written (atomiclock.go rewrites them into Acquire/Release; the
	// oracle explores the program without the rewrite as ground truth).
	NoAtomicLocks bool
	// UnsoundJoinAllBounds is UNSOUND, for the oracle's mutation tests
	// only: a join loop counts as joining every thread of a create loop
	// (joinall.go) whatever the two loops' bounds.
	UnsoundJoinAllBounds bool
	// NoConstBranches keeps the control-flow edges constbranch.go
	// removes (x := c directly before an assume that x == c refutes): the
	// explorer's ground truth in tests. UnsoundConstBranches is UNSOUND,
	// for the mutation tests only: the conditions are evaluated with casts
	// that do not wrap ((unsigned char)256 taken as 256).
	NoConstBranches, UnsoundConstBranches bool
	// NoThreadLocals keeps thread-local global registers as globals
	// (tls.go localizes them; the interpreter gives each thread its copy
	// either way, which the tests compare).
	NoThreadLocals bool
	// Entries names the entry points of a library (doc.go, "Libraries"):
	// with Entries, or when the unit has no main, the program is the
	// library against its most general client, calling every entry (by
	// default every function with external linkage).
	Entries []string
	// EntryThreads is the number of client threads calling entries at
	// once: 0 any number, 1 one (a library documented as not
	// thread-safe).
	EntryThreads int
}

// DefaultMaxLocs is the default budget of locations per program.
const DefaultMaxLocs = 100000

// Error is a lowering error with its source position. Error() is in the
// conventional "file:line:col: error: msg" form.
type Error struct {
	Pos token.Position
	Msg string
}

func (e *Error) Error() string {
	switch {
	case e.Pos.Line > 0:
		return fmt.Sprintf("%s:%d:%d: error: %s", e.Pos.Filename, e.Pos.Line, e.Pos.Column, e.Msg)
	case e.Pos.Filename != "":
		return fmt.Sprintf("%s: error: %s", e.Pos.Filename, e.Msg)
	}
	return "error: " + e.Msg
}

// BuildFile reads and lowers the C file at path.
func BuildFile(path string, opts Options) (*Program, error) {
	return Build(path, nil, opts)
}

// Build lowers one C translation unit (a .c file, preprocessed by cc's own
// preprocessor, or an already preprocessed .i file) to the IR. When src is
// nil the file is read from filename.
func Build(filename string, src []byte, opts Options) (*Program, error) {
	ast, err := translateFile(filename, src, opts)
	if err != nil {
		return nil, err
	}
	return lowerUnits(filename, []string{filename}, []*cc.AST{ast}, opts)
}

// translateFile preprocesses, parses and type-checks one unit.
func translateFile(filename string, src []byte, opts Options) (ast *cc.AST, err error) {
	if src == nil {
		data, rerr := os.ReadFile(filename)
		if rerr != nil {
			return nil, &Error{Pos: token.Position{Filename: filename}, Msg: rerr.Error()}
		}
		src = data
	}
	defer func() {
		// (runs after the recover below has turned a panic into err)
		if e, ok := err.(*Error); ok {
			err = mapError(e, filename, src)
		}
	}()
	if e := checkNesting(filename, src); e != nil {
		return nil, e
	}
	conf, err := frontendConfig(opts)
	if err != nil {
		return nil, &Error{Pos: token.Position{Filename: filename}, Msg: err.Error()}
	}
	defer func() {
		if r := recover(); r != nil {
			ast, err = nil, &Error{Pos: token.Position{Filename: filename}, Msg: fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())}
		}
	}()
	translate := func(src []byte) (*cc.AST, error) {
		sources := unitSources(conf, opts, filename, src)
		if prunePreludes && wholeUnitText(opts, src) {
			// Only the prelude lines the unit names, without the
			// prototypes nothing names (prelude.go).
			if pre, bi, file, ok := pruneUnit(sources[0].Value.(string), sources[1].Value.(string), src); ok {
				sources[0].Value, sources[1].Value = pre, bi
				sources[len(sources)-1].Value = file
			}
		}
		sources = append(sources,
			// cc's parser loops forever when the token stream ends right
			// after a '*' (typeQualifierList at EOF). A harmless trailing
			// declaration in a source of its own (so that no comment or
			// directive of the file can swallow it) always gives the loop
			// an identifier to stop at.
			cc.Source{Name: "<end>", Value: "typedef int __chorus_end_of_input;\n"})
		// A preprocessing error (a missing #include, ...) can cut the
		// token stream short of that declaration: stop at such errors
		// before parsing. Only a failed #include and the expansion
		// limit cut the stream; a unit that can do neither
		// (streamCannotBeCut) skips this second pass of the
		// preprocessor (a fifth of the time of a preprocessed .i file).
		if !streamCannotBeCut(opts, src) {
			if err := cc.Preprocess(&conf, sources, io.Discard); err != nil {
				return nil, err
			}
		}
		return cc.Translate(&conf, sources)
	}
	// The blanked source first when its blanking is safe (castNamesFirst,
	// safeCastParamBlanks): every DDVerify driver has such casts twice in
	// a block, and cc reports the redeclaration only after the whole
	// parse and check, so the original's translation was wasted (a third
	// of the frontend of a small driver). When it fails, the original
	// is translated as before, with the same outcome.
	var tried []byte
	if castNamesFirst {
		if fixed, ok := safeCastParamBlanks(conf, opts, src); ok {
			if ast2, err2 := translate(fixed); err2 == nil {
				return ast2, nil
			}
			tried = fixed
		}
	}
	ast, terr := translate(src)
	if terr != nil && strings.Contains(terr.Error(), "redeclaration of") {
		// cc declares the parameter names of function types written in
		// casts in the enclosing block scope, so CIL output such as
		//   (int (*)(struct tty_struct *tty, struct file *filp))op->open
		// twice in a block is rejected. Blank those names (keeping every
		// byte offset) and retry (unless that very source failed above:
		// the translation is deterministic).
		if fixed, ok := blankCastParamNames(src); ok && !bytes.Equal(fixed, tried) {
			if ast2, err2 := translate(fixed); err2 == nil {
				ast, terr = ast2, nil
			}
		}
	}
	if terr != nil {
		e := ccError(filename, terr)
		if e.Pos.Filename == "<end>" {
			// The error is at our trailing declaration: the file ended in
			// the middle of something.
			e = &Error{Pos: token.Position{Filename: filename, Line: 1 + strings.Count(string(src), "\n"), Column: 1},
				Msg: "unexpected end of input"}
		}
		return nil, e
	}
	return ast, nil
}

// maxUncheckedSource is the largest source streamCannotBeCut accepts: with
// at most one token per byte and the host's predefined macros expanding
// each token a few times at most, far below maxExpansion.
const maxUncheckedSource = maxExpansion / 16

// streamCannotBeCut reports whether cc's preprocessor cannot end the token
// stream of the unit early, so that cc.Translate alone reports every
// preprocessing error and the parser always reaches the trailing
// declaration (translateFile). cc cuts the stream in two places only: a
// failed #include or #include_next, and the macro expansion limit. So the
// unit must have no forced includes and no command-line macros (either
// could include or define anything), the file must be small
// (maxUncheckedSource), and each '#' in it must start a line marker
// ("# 12 ..."), #line, #pragma or #ident: what a preprocessed .i file
// has. A digraph "%:" or a trigraph "??=" could spell '#' and is refused
// too. Any '#' elsewhere (in a string or a comment) only costs the second
// pass, never skips it wrongly.
func streamCannotBeCut(opts Options, src []byte) bool {
	return len(src) <= maxUncheckedSource && wholeUnitText(opts, src)
}

// wholeUnitText reports whether src spells the whole translation unit:
// no forced includes and no command-line macros, and each '#' in src
// starts a line marker ("# 12 ..."), #line, #pragma or #ident (what a
// preprocessed .i file has), so that the file includes nothing and
// defines no macro. A digraph "%:" or a trigraph "??=" could spell '#'
// and is refused too.
func wholeUnitText(opts Options, src []byte) bool {
	if len(opts.ForcedIncludes) > 0 || len(opts.Macros) > 0 {
		return false
	}
	if bytes.Contains(src, []byte("%:")) || bytes.Contains(src, []byte("??=")) {
		return false
	}
	for i := 0; i < len(src); i++ {
		if src[i] == '#' && !harmlessDirective(src[i+1:]) {
			return false
		}
	}
	return true
}

// harmlessDirective reports whether rest, the text after a '#', makes a
// line marker ("# 12 ..."), #line, #pragma or #ident: no include, no
// macro.
func harmlessDirective(rest []byte) bool {
	rest = bytes.TrimLeft(rest, " \t")
	switch {
	case len(rest) > 0 && rest[0] >= '0' && rest[0] <= '9':
	case bytes.HasPrefix(rest, []byte("line ")), bytes.HasPrefix(rest, []byte("pragma ")), bytes.HasPrefix(rest, []byte("ident ")):
	default:
		return false
	}
	return true
}

// lowerUnits lowers translated units as one program named name.
func lowerUnits(name string, files []string, asts []*cc.AST, opts Options) (prog *Program, err error) {
	var b *builder
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(*Error); ok {
				prog, err = nil, e
				return
			}
			pos := token.Position{Filename: name}
			if b != nil && b.pos.Line > 0 {
				pos = b.pos
			}
			prog, err = nil, &Error{Pos: pos, Msg: fmt.Sprintf("internal error: %v\n%s", r, debug.Stack())}
		}
	}()
	maxLocs := opts.MaxLocs
	if maxLocs <= 0 {
		maxLocs = DefaultMaxLocs
	}
	// Lower, then lower again while the points-to analysis finds more
	// functions whose address reaches unknown external code (callback.go):
	// each round adds callbacks, bounded by the address-taken functions;
	// after a few rounds every address-taken function is a callback.
	var callbacks map[string]bool
	uses := map[*cc.AST]*unitUses{} // the units' walks, done once (unitUsesOf)
	coarse := false
	for round := 0; ; round++ {
		b = newBuilder(name, asts, opts.DataModel, maxLocs)
		b.uses = uses
		b.unitFiles = files
		b.shareAll = opts.ShareAll
		b.noAtomicLocks = opts.NoAtomicLocks
		b.unsoundJoinAllBounds = opts.UnsoundJoinAllBounds
		b.noThreadLocals = opts.NoThreadLocals
		b.constBranches = constBranchMode(opts)
		b.callbacks = callbacks
		b.entryNames = opts.Entries
		b.entryThreads = opts.EntryThreads
		b.coarse = coarse
		if !buildOrCoarsen(b) {
			// Too large with the inlining policy: degrade rather than
			// fail, once.
			coarse = true
			round--
			continue
		}
		if coarse {
			b.prog.Coarsened = fmt.Sprintf("over %d times its budget of %d locations: every call shares one body per function and thread template", hardLocFactor, maxLocs)
			b.note("budget", token.Position{Filename: name}, "program %s (values of their call sites meet: less precise)", b.prog.Coarsened)
		}
		if !b.rebuild {
			return b.prog, nil
		}
		next := map[string]bool{}
		for f := range callbacks {
			next[f] = true
		}
		for f := range b.needCallbacks {
			next[f] = true
		}
		if round >= 2 {
			for f := range b.addrTaken {
				if b.funcs[f] != nil {
					next[f] = true
				}
			}
		}
		callbacks = next
	}
}

var (
	configMu    sync.Mutex
	configCache = map[HostProbe]*cc.Config{}
)

// baseConfig returns the cached cc configuration of a host probe; callers
// copy it. The host compiler is asked once per probe and process (or
// HostConfigSource answers).
func baseConfig(p HostProbe) (*cc.Config, error) {
	configMu.Lock()
	defer configMu.Unlock()
	if c := configCache[p]; c != nil {
		return c, nil
	}
	get := ProbeHost
	if HostConfigSource != nil {
		get = HostConfigSource
	}
	hc, err := get(p)
	if err != nil {
		return nil, err
	}
	arch := "amd64"
	if p.DataModel == ILP32 {
		arch = "386"
	}
	abi, err := cc.NewABI("linux", arch)
	if err != nil {
		return nil, err
	}
	c, err := stdConfig(p.Std, arch) // the keywords of -std= (hostcc.go)
	if err != nil {
		return nil, err
	}
	// Field by field: the keywords (unexported) stay.
	c.ABI = abi
	c.CC = hc.CC
	c.HostIncludePaths = hc.IncludePaths
	c.HostSysIncludePaths = hc.SysIncludePaths
	c.IncludePaths = append([]string{""}, append(append([]string(nil), hc.IncludePaths...), hc.SysIncludePaths...)...)
	c.Predefined = hc.Predefined
	c.SysIncludePaths = append([]string(nil), hc.SysIncludePaths...)
	if p.DataModel == ILP32 {
		// Hosts without the 32-bit multilib headers: the x86_64 glibc
		// headers serve both word sizes (they test __x86_64__), except for
		// gnu/stubs-32.h, which an overlay provides (it only lists
		// unimplemented functions).
		lp := p
		lp.DataModel = LP64
		host, herr := baseConfigLocked(lp)
		if herr == nil {
			c.IncludePaths = mergePaths(c.IncludePaths, host.IncludePaths)
			c.SysIncludePaths = mergePaths(c.SysIncludePaths, host.SysIncludePaths)
		}
		c.SysIncludePaths = append(c.SysIncludePaths, overlayDir)
		c.IncludePaths = append(c.IncludePaths, overlayDir)
	}
	configCache[p] = c
	return c, nil
}

func baseConfigLocked(p HostProbe) (*cc.Config, error) {
	configMu.Unlock()
	defer configMu.Lock()
	return baseConfig(p)
}

// mergePaths inserts the paths of b missing from a, each before the first
// entry of a that follows it in b.
func mergePaths(a, b []string) []string {
	have := map[string]bool{}
	for _, p := range a {
		have[p] = true
	}
	out := append([]string(nil), a...)
	for i, p := range b {
		if have[p] {
			continue
		}
		pos := len(out)
		for _, q := range b[i+1:] {
			found := false
			for k, r := range out {
				if r == q {
					pos, found = k, true
					break
				}
			}
			if found {
				break
			}
		}
		out = append(out[:pos], append([]string{p}, out[pos:]...)...)
		have[p] = true
	}
	return out
}

const overlayDir = "/chorus-overlay/include"

// overlay holds synthetic headers by absolute path.
var overlay = map[string]string{overlayDir + "/gnu/stubs-32.h": "/* chorus: no stubs */\n"}

// maxExpansion bounds the preprocessor's work (tokens processed); the
// largest corpus file needs well under one million.
const maxExpansion = 5_000_000

// frontendConfig is the cc configuration of one translation unit under
// opts (Build and InputDigest must agree on it). A Config must not be
// shared between concurrent Translate calls: each call gets a copy.
func frontendConfig(opts Options) (cc.Config, error) {
	base, err := baseConfig(HostProbe{DataModel: opts.DataModel, Std: opts.Std, Pthread: opts.Pthread})
	if err != nil {
		return cc.Config{}, err
	}
	conf := *base
	// gcc's search order (Options); base.IncludePaths starts with "" (the
	// including file's directory).
	var quote, sys []string
	quote = append(quote, "")
	quote = append(quote, opts.QuoteDirs...)
	quote = append(quote, opts.IncludeDirs...)
	quote = append(quote, opts.SystemDirs...)
	quote = append(quote, base.IncludePaths[1:]...)
	quote = append(quote, opts.AfterDirs...)
	sys = append(sys, opts.IncludeDirs...)
	sys = append(sys, opts.SystemDirs...)
	sys = append(sys, base.SysIncludePaths...)
	sys = append(sys, opts.AfterDirs...)
	// cc joins every include name to a search directory: an absolute name
	// is found through absDir, searched last (hostFS).
	conf.IncludePaths = append(quote, absDir)
	conf.SysIncludePaths = append(sys, absDir)
	if len(opts.Macros) > 0 {
		var b strings.Builder
		b.WriteString(conf.Predefined)
		for _, m := range opts.Macros {
			b.WriteString("\n")
			b.WriteString(m.Directive())
		}
		b.WriteString("\n")
		conf.Predefined = b.String()
	}
	// Untrusted input must not hang the frontend: macro expansion is
	// bounded, and #include reaches only regular files (not /dev/zero or
	// a FIFO), through hostFS.
	conf.ExpansionLimit = maxExpansion
	conf.FS = hostFS{}
	conf.FSOnly = true
	conf.PragmaHandler = rejectPragmaPack
	return conf, nil
}

// unitSources are the sources of one translation unit in order: the
// predefined macros (host and command line), cc's builtins, the forced
// includes, the file.
func unitSources(conf cc.Config, opts Options, filename string, src []byte) []cc.Source {
	sources := []cc.Source{
		{Name: "<predefined>", Value: conf.Predefined},
		{Name: "<builtin>", Value: cc.Builtin + typedAtomicBuiltins},
	}
	if len(opts.ForcedIncludes) > 0 {
		var b strings.Builder
		for _, f := range opts.ForcedIncludes {
			fmt.Fprintf(&b, "#include %q\n", f)
		}
		sources = append(sources, cc.Source{Name: "<command-line>", Value: b.String()})
	}
	return append(sources, cc.Source{Name: filename, Value: src})
}

// typedAtomicBuiltins gives the value results of GCC's generic atomic
// builtins *p's type for cc, which types an implicitly declared builtin as
// int: __sync_add_and_fetch(&l, 1) + 1 on a long was an int sum (the
// upper bits lost: a wrong proof). Each macro casts the builtin's call to
// __typeof__(*(p)) (not evaluated: p's side effects happen once); a macro
// does not expand inside its own expansion, so the call is the builtin's
// (builtins.go lowers its value with *p's type already).
var typedAtomicBuiltins = func() string {
	var b strings.Builder
	b.WriteString("\n")
	for _, n := range []string{"add", "sub", "and", "or", "xor", "nand"} {
		for _, f := range []string{"__sync_fetch_and_%s", "__sync_%s_and_fetch"} {
			name := fmt.Sprintf(f, n)
			fmt.Fprintf(&b, "#define %s(p, ...) ((__typeof__(*(p)))%s((p), __VA_ARGS__))\n", name, name)
		}
		for _, f := range []string{"__atomic_fetch_%s", "__atomic_%s_fetch"} {
			name := fmt.Sprintf(f, n)
			fmt.Fprintf(&b, "#define %s(p, ...) ((__typeof__(*(p)))%s((p), __VA_ARGS__))\n", name, name)
		}
	}
	for _, name := range []string{"__sync_val_compare_and_swap", "__sync_lock_test_and_set", "__atomic_load_n", "__atomic_exchange_n"} {
		fmt.Fprintf(&b, "#define %s(p, ...) ((__typeof__(*(p)))%s((p), __VA_ARGS__))\n", name, name)
	}
	return b.String()
}()

// absDir is the search directory of absolute include names: cc joins
// "/x/y.h" to it as absDir+"/x/y.h", which hostFS opens as "/x/y.h".
const absDir = "/chorus-absolute"

// hostFS serves the overlay's synthetic headers and the host's regular
// files (cc passes absolute or include-relative names).
type hostFS struct{}

func (hostFS) Open(name string) (fs.File, error) {
	if s, ok := overlay[name]; ok {
		return fstest.MapFS{"f": {Data: []byte(s)}}.Open("f")
	}
	if rest, ok := strings.CutPrefix(name, absDir+"/"); ok {
		name = "/" + rest
	}
	fi, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return os.Open(name)
}

// ccError turns cc's error list ("file:line:col: msg" lines) into an
// *Error for the first one.
func ccError(filename string, err error) *Error {
	line := strings.SplitN(err.Error(), "\n", 2)[0]
	pos, msg := parsePosPrefix(line)
	if pos.Filename == "" {
		pos.Filename = filename
	}
	return &Error{Pos: pos, Msg: msg}
}

// parsePosPrefix splits "file:line:col: msg".
func parsePosPrefix(s string) (token.Position, string) {
	parts := strings.SplitN(s, ":", 4)
	if len(parts) == 4 {
		l, err1 := strconv.Atoi(parts[1])
		c, err2 := strconv.Atoi(parts[2])
		if err1 == nil && err2 == nil {
			return token.Position{Filename: parts[0], Line: l, Column: c}, strings.TrimSpace(parts[3])
		}
	}
	return token.Position{}, s
}

// maxNesting bounds bracket nesting in the input: the parser and the
// lowering recurse over it, and a Go stack overflow cannot be recovered.
const maxNesting = 1000

func checkNesting(filename string, src []byte) *Error {
	depth, line, col := 0, 1, 0
	for _, c := range src {
		col++
		switch c {
		case '\n':
			line++
			col = 0
		case '(', '[', '{':
			depth++
			if depth > maxNesting {
				return &Error{Pos: token.Position{Filename: filename, Line: line, Column: col}, Msg: fmt.Sprintf("brackets nested deeper than %d", maxNesting)}
			}
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// ParseDataModel parses "ILP32" or "LP64" (case-insensitive).
func ParseDataModel(s string) (DataModel, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "ILP32":
		return ILP32, nil
	case "LP64":
		return LP64, nil
	}
	return LP64, fmt.Errorf("unknown data model %q (want ILP32 or LP64)", s)
}

// DataModelFromYML reads "options: data_model: ILP32|LP64" from an SV-COMP
// task definition. A task without the option is ILP32 (SV-COMP's default).
func DataModelFromYML(ymlPath string) (DataModel, error) {
	data, err := os.ReadFile(ymlPath)
	if err != nil {
		return ILP32, err
	}
	inOptions := false
	for _, raw := range strings.Split(string(data), "\n") {
		line := raw
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		if !indented {
			inOptions = strings.TrimSpace(line) == "options:"
			continue
		}
		if !inOptions {
			continue
		}
		key, val, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && strings.TrimSpace(key) == "data_model" {
			return ParseDataModel(strings.Trim(strings.TrimSpace(val), `'"`))
		}
	}
	return ILP32, nil
}

var cKeywords = map[string]bool{
	"void": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true,
	"signed": true, "unsigned": true, "_Bool": true, "const": true, "volatile": true, "restrict": true,
	"struct": true, "union": true, "enum": true, "__restrict": true, "__const": true, "_Complex": true,
}

// blankCastParamNames replaces the parameter names inside abstract
// function declarators "(*)(...)" with spaces.
func blankCastParamNames(src []byte) ([]byte, bool) {
	out := append([]byte(nil), src...)
	changed := false
	for i := 0; i+4 <= len(out); i++ {
		if out[i] != '(' || out[i+1] != '*' || out[i+2] != ')' {
			continue
		}
		j := i + 3
		for j < len(out) && (out[j] == ' ' || out[j] == '\t') {
			j++
		}
		if j >= len(out) || out[j] != '(' {
			continue
		}
		// the parameter list [j+1, end)
		depth, end := 0, -1
		for k := j; k < len(out); k++ {
			if out[k] == '(' {
				depth++
			} else if out[k] == ')' {
				depth--
				if depth == 0 {
					end = k
					break
				}
			}
		}
		if end < 0 {
			break
		}
		start := j + 1
		for k := start; k <= end; k++ {
			if k == end || out[k] == ',' {
				if blankParamName(out[start:k]) {
					changed = true
				}
				start = k + 1
			}
		}
		i = j
	}
	return out, changed
}

// castNamesFirst enables the safe blanked source first in translateFile
// (the tests compare with the original first).
var castNamesFirst = true

// safeCastParamBlanks returns blankCastParamNames(src) when it blanks
// something and every name it blanks is certainly the name of a
// parameter declarator, so that the blanked source means what the
// original means (parameter names of an abstract declarator have
// prototype scope: they name nothing outside it, and cc's declaring
// them in the enclosing block only adds redeclaration errors, or makes a
// later use of the name in that block resolve to such a parameter, which
// C does not). A name is certain when the text before it is a '*' or a
// type keyword (void, char, ..., unsigned), or an identifier that is
// neither a keyword nor a macro (a typedef name or a struct tag: two
// identifiers in a parameter declaration are a type and a name). The
// unit must spell all its text (definesNoMacro: no #define, no #include)
// and neither the name nor the identifier before it may be a predefined
// macro (i386, linux, true, ...): a macro could spell a qualifier
// (blanking the type name after "const" would change the type) or
// anything else.
func safeCastParamBlanks(conf cc.Config, opts Options, src []byte) ([]byte, bool) {
	if !definesNoMacro(opts, src) || !bytes.Contains(src, []byte("(*)")) {
		return nil, false
	}
	fixed, ok := blankCastParamNames(src)
	if !ok {
		return nil, false
	}
	macros := predefinedMacroNames(conf)
	for i := 0; i < len(src); i++ {
		if src[i] == fixed[i] || i > 0 && src[i-1] != fixed[i-1] {
			continue // not the start of a blanked name
		}
		e := i
		for e < len(src) && src[e] != fixed[e] {
			e++
		}
		if macros[string(src[i:e])] {
			return nil, false
		}
		k := i
		for k > 0 && isSpace(src[k-1]) {
			k--
		}
		if k > 0 && src[k-1] == '*' {
			continue
		}
		ts := k
		for ts > 0 && isIdent(src[ts-1]) {
			ts--
		}
		prev := string(src[ts:k])
		switch {
		case prev == "" || prev[0] >= '0' && prev[0] <= '9' || macros[prev]:
			return nil, false
		case castTypeKeywords[prev]:
		case cKeywords[prev] || strings.HasPrefix(prev, "__") || cQualifierWords[prev]:
			return nil, false // const, volatile, __restrict, struct, ...
		}
	}
	return fixed, true
}

// definesNoMacro is wholeUnitText (no forced include, no command-line
// macro, every directive a line marker, #line, #pragma or #ident, no
// digraph or trigraph that could spell '#') with one refinement: a '#'
// after other text on its physical line is no directive when that text
// holds neither '/' nor '*' (so no comment ends there, the only way text
// before a directive's '#' can be something other than white space: a
// line splice ends the physical line). That admits the "%#x" of a
// printk format, which made wholeUnitText refuse six DDVerify drivers.
func definesNoMacro(opts Options, src []byte) bool {
	if len(opts.ForcedIncludes) > 0 || len(opts.Macros) > 0 {
		return false
	}
	if bytes.Contains(src, []byte("%:")) || bytes.Contains(src, []byte("??=")) {
		return false
	}
	for i := 0; i < len(src); i++ {
		if src[i] != '#' {
			continue
		}
		start := bytes.LastIndexAny(src[:i], "\n\r") + 1
		before := bytes.TrimLeft(src[start:i], " \t\f\v")
		if len(before) > 0 {
			if bytes.ContainsAny(before, "/*") {
				return false
			}
			continue // after a token on its line: not a directive
		}
		if !harmlessDirective(src[i+1:]) {
			return false
		}
	}
	return true
}

// castTypeKeywords are the type keywords after which an identifier in a
// parameter declaration can only be its name (no typedef name combines
// with them).
var castTypeKeywords = map[string]bool{
	"void": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true,
	"signed": true, "unsigned": true, "_Bool": true,
}

// cQualifierWords are keywords not in cKeywords that may stand before a
// type name in a declaration (an identifier after them may be a typedef
// name).
var cQualifierWords = map[string]bool{
	"register": true, "auto": true, "static": true, "extern": true, "inline": true, "typedef": true,
	"_Atomic": true, "_Alignas": true, "_Thread_local": true, "_Noreturn": true, "typeof": true, "asm": true,
}

var (
	macroNamesMu    sync.Mutex
	macroNamesCache = map[string]map[string]bool{}
)

// predefinedMacroNames are the names #defined by conf's predefined
// macros and cc's builtins (once per predefined text and process).
func predefinedMacroNames(conf cc.Config) map[string]bool {
	macroNamesMu.Lock()
	defer macroNamesMu.Unlock()
	if m := macroNamesCache[conf.Predefined]; m != nil {
		return m
	}
	m := map[string]bool{}
	for _, text := range []string{conf.Predefined, cc.Builtin} {
		for line := range strings.Lines(text) {
			rest, ok := strings.CutPrefix(strings.TrimLeft(line, " \t"), "#")
			if !ok {
				continue
			}
			rest, ok = strings.CutPrefix(strings.TrimLeft(rest, " \t"), "define")
			if !ok {
				continue
			}
			rest = strings.TrimLeft(rest, " \t")
			n := 0
			for n < len(rest) && isIdent(rest[n]) {
				n++
			}
			if n > 0 {
				m[rest[:n]] = true
			}
		}
	}
	macroNamesCache[conf.Predefined] = m
	return m
}

func blankParamName(p []byte) bool {
	if bytesContains(p, '(') || bytesContains(p, '[') {
		return false
	}
	e := len(p)
	for e > 0 && isSpace(p[e-1]) {
		e--
	}
	s := e
	for s > 0 && isIdent(p[s-1]) {
		s--
	}
	if s == e || p[s] >= '0' && p[s] <= '9' || cKeywords[string(p[s:e])] {
		return false
	}
	// something must precede the name: a '*' or another token that is not
	// struct/union/enum
	k := s
	for k > 0 && isSpace(p[k-1]) {
		k--
	}
	if k == 0 {
		return false
	}
	if p[k-1] != '*' {
		ts := k
		for ts > 0 && isIdent(p[ts-1]) {
			ts--
		}
		prev := string(p[ts:k])
		if prev == "" || prev == "struct" || prev == "union" || prev == "enum" {
			return false
		}
	}
	for i := s; i < e; i++ {
		p[i] = ' '
	}
	return true
}

func bytesContains(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isIdent(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// buildOrCoarsen lowers b's program; it returns false when the program
// went over hardLocFactor times its budget with calls inlined (errCoarsen),
// and passes any other panic on.
func buildOrCoarsen(b *builder) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(errCoarsen); !is {
				panic(r)
			}
			ok = false
		}
	}()
	b.build()
	return true
}
