package cfg

// Models of C library functions the real corpus calls most (pigz, zstd,
// memcached, C-Thread-Pool), beyond those of builtins.go. Each model is
// sound for what the analysis tracks, and makes fewer assumptions about
// the function than "unknown external" would (callback.go): a modelled
// function calls no function pointer, does not touch address-taken
// globals, and keeps no pointer it receives.
//
//   - libcReadOnly: writes no memory the program can read; the result is
//     any value of its type (a pointer result points into the objects its
//     arguments point to, or to unknown memory: strchr, strerror).
//     String and memory comparison, conversion and classification
//     functions, byte order, time queries without out-parameters, sleep,
//     bit counts, math, zlib's checksums.
//   - libcWrites: writes only memory reachable from its pointer arguments
//     (any bytes: pointers stored there point to unknown memory), the
//     result is any value: string copies, formatted output to a buffer,
//     reads into a buffer, out-parameters (gettimeofday, strtol's endptr).
//   - libcCalls: like libcWrites, and may also call, any number of times
//     and from threads of its own, any function whose address is
//     reachable from its arguments (callback.go: the same callback
//     spawns as an unknown external, narrowed to what its arguments
//     reach, without the address-taken globals' reach). zlib's stream
//     functions (their state lives in the z_stream the argument points
//     to, and they call its zalloc/zfree with its opaque, or inflateBack's
//     in/out functions), pthread_key_create (the destructor).
//   - strdup, strndup, realloc: a fresh heap object (realloc: with the
//     pointers of the old one), like malloc; never NULL.
//
// The callbacks of a libcCalls model are thread templates spawned at the
// call (callback.go), which covers a call before the function returns
// (pthread_once's init_routine, qsort's comparator), a call in a thread
// of its own, and a later call at any point (a signal handler); their
// writes reach the rest of the program through interference, and their
// parameters hold anything unknown code reaches, or, when only these
// models call back, what they hold (pointsto.go libcCallbackReach). A libcCalls result may
// point to anything unknown code holds (signal returns the handler an
// earlier call installed).

import (
	"go/token"

	"modernc.org/cc/v4"
)

type libcKind uint8

const (
	unknownExternal libcKind = iota
	libcReadOnly
	libcWrites
	libcCalls
)

var libcModels = map[string]libcKind{
	// strings and memory, read only
	"strlen": libcReadOnly, "strnlen": libcReadOnly, "strcmp": libcReadOnly, "strncmp": libcReadOnly,
	"strcasecmp": libcReadOnly, "strncasecmp": libcReadOnly, "memcmp": libcReadOnly, "bcmp": libcReadOnly,
	"strchr": libcReadOnly, "strrchr": libcReadOnly, "strstr": libcReadOnly, "memchr": libcReadOnly,
	"strspn": libcReadOnly, "strcspn": libcReadOnly, "strpbrk": libcReadOnly, "strerror": libcReadOnly,
	"__builtin_strlen": libcReadOnly, "__builtin_strcmp": libcReadOnly, "__builtin_memcmp": libcReadOnly,
	// conversions and classification
	"atoi": libcReadOnly, "atol": libcReadOnly, "atoll": libcReadOnly, "atof": libcReadOnly,
	"abs": libcReadOnly, "labs": libcReadOnly, "llabs": libcReadOnly,
	"isdigit": libcReadOnly, "isspace": libcReadOnly, "isalpha": libcReadOnly, "isalnum": libcReadOnly,
	"isupper": libcReadOnly, "islower": libcReadOnly, "isprint": libcReadOnly, "isxdigit": libcReadOnly,
	"toupper": libcReadOnly, "tolower": libcReadOnly,
	"htonl": libcReadOnly, "ntohl": libcReadOnly, "htons": libcReadOnly, "ntohs": libcReadOnly,
	"getenv": libcReadOnly, "getpid": libcReadOnly, "rand": libcReadOnly, "random": libcReadOnly,
	"clock": libcReadOnly, "difftime": libcReadOnly, "sleep": libcReadOnly, "usleep": libcReadOnly,
	"sysconf": libcReadOnly, "isatty": libcReadOnly, "fileno": libcReadOnly,
	// bit counts and math: pure (libm may set errno, which the program
	// reads only through __errno_location, an unknown external that
	// havocs what unknown code reaches); zlib's checksums read their
	// buffer only. Each unknown call site havocs every reachable cell
	// (pigz linked: 290 of its 1,335 such sites were these).
	"__builtin_clz": libcReadOnly, "__builtin_clzl": libcReadOnly, "__builtin_clzll": libcReadOnly,
	"__builtin_ctz": libcReadOnly, "__builtin_ctzl": libcReadOnly, "__builtin_ctzll": libcReadOnly,
	"__builtin_popcount": libcReadOnly, "__builtin_popcountl": libcReadOnly, "__builtin_popcountll": libcReadOnly,
	"log": libcReadOnly, "log2": libcReadOnly, "log10": libcReadOnly, "exp": libcReadOnly, "pow": libcReadOnly,
	"sqrt": libcReadOnly, "fabs": libcReadOnly, "floor": libcReadOnly, "ceil": libcReadOnly,
	"crc32": libcReadOnly, "adler32": libcReadOnly,
	// writes through its pointer arguments only
	"strcpy": libcWrites, "strncpy": libcWrites, "strcat": libcWrites, "strncat": libcWrites,
	"snprintf": libcWrites, "sprintf": libcWrites, "vsnprintf": libcWrites, "vsprintf": libcWrites,
	"fgets": libcWrites, "fread": libcWrites, "read": libcWrites, "pread": libcWrites, "recv": libcWrites,
	"fwrite": libcReadOnly, "write": libcReadOnly, "pwrite": libcReadOnly, "send": libcReadOnly,
	"fclose": libcWrites, "close": libcWrites, "fseek": libcWrites, "ftell": libcWrites, "lseek": libcWrites,
	"fopen": libcReadOnly, "open": libcReadOnly, "fdopen": libcReadOnly,
	"stat": libcWrites, "fstat": libcWrites, "lstat": libcWrites,
	"gettimeofday": libcWrites, "clock_gettime": libcWrites, "time": libcWrites, "nanosleep": libcWrites,
	"strtol": libcWrites, "strtoul": libcWrites, "strtoll": libcWrites, "strtoull": libcWrites, "strtod": libcWrites,
	"srand": libcReadOnly, "setlocale": libcReadOnly, "unlink": libcReadOnly, "remove": libcReadOnly,
	"pthread_attr_init": libcWrites, "pthread_attr_destroy": libcWrites, "pthread_attr_setstacksize": libcWrites,
	"pthread_attr_setdetachstate": libcWrites, "pthread_attr_getstacksize": libcWrites,

	// errno: glibc's errno macro is (*__errno_location()), the calling
	// thread's errno in the C library's own storage, which no program
	// object aliases. The result points to unknown memory (no arguments):
	// a read through it is any int, a write changes no cell of the
	// program. So errno needs no havoc at the calls that set it.
	"__errno_location": libcReadOnly,
	// results in the C library's static storage (unknown memory), no
	// program memory written: version strings, the CRC table, broken-down
	// time (ctime/localtime read their time_t argument only), file
	// metadata system calls, the directory stream (opendir's DIR is
	// library memory; readdir writes it and returns a pointer into it).
	"zlibVersion": libcReadOnly, "get_crc_table": libcReadOnly,
	"ctime": libcReadOnly, "localtime": libcReadOnly, "gmtime": libcReadOnly, "mktime": libcWrites,
	"chmod": libcReadOnly, "chown": libcReadOnly, "utimes": libcReadOnly, "fsync": libcReadOnly,
	"getchar": libcReadOnly, "opendir": libcReadOnly, "readdir": libcWrites, "closedir": libcWrites,
	// variadic arguments: va_start/va_end/va_copy write the va_list only.
	// va_arg(ap, T) is *(T *)__builtin_va_arg_impl(ap) (modernc.org/cc),
	// modelled by vaArg (unknownVals).
	"__builtin_va_start": libcWrites, "__builtin_va_end": libcWrites, "__builtin_va_copy": libcWrites,
	// zlib's stream functions: everything they touch hangs off the
	// z_stream (its state, allocated through strm->zalloc, the buffers
	// next_in/next_out/dictionary point to) and they call zalloc/zfree
	// (or inflateBack's in/out arguments), all reachable from the
	// arguments.
	"deflate": libcCalls, "deflateEnd": libcCalls, "deflateInit2_": libcCalls, "deflateInit_": libcCalls,
	"deflateParams": libcCalls, "deflatePending": libcCalls, "deflatePrime": libcCalls,
	"deflateReset": libcCalls, "deflateSetDictionary": libcCalls, "deflateBound": libcCalls,
	"inflate": libcCalls, "inflateEnd": libcCalls, "inflateInit_": libcCalls, "inflateInit2_": libcCalls,
	"inflateReset": libcCalls, "inflateBack": libcCalls, "inflateBackEnd": libcCalls, "inflateBackInit_": libcCalls,
	// pthread_key_create: the key's destructor may run at any thread's
	// exit with the thread's value (threadSpecific). pthread_once writes
	// its once control and may call init_routine (at most once in all,
	// the spawn covers any). signal installs a handler that may run at
	// any later point of any thread. qsort calls the comparator with
	// pointers into the array and permutes the array's elements (call.go
	// records the copy of pointers within it).
	"pthread_key_create": libcCalls, "pthread_once": libcCalls, "signal": libcCalls, "qsort": libcCalls,

	"pthread_kill": libcReadOnly, "sigemptyset": libcWrites, "sigfillset": libcWrites, "sigaddset": libcWrites,
	"pthread_sigmask": libcWrites, "sigprocmask": libcWrites,
}

// libcAlloc models strdup/strndup (a fresh heap object of the result's
// type, any contents) and realloc (a fresh heap object holding the
// pointers of the old one, any other contents; never NULL).
func (b *builder) libcAlloc(name string, x *cc.PostfixExpression, vals []Expr) Expr {
	b.assume(b.pos, "%s: C library model: a fresh heap object (never NULL)", name)
	size := b.temp(b.intptr())
	b.emit(&Havoc{Dst: &VarRef{Var: size}})
	if b.allocHint == nil {
		save := b.allocHint
		b.allocHint = x.Type()
		defer func() { b.allocHint = save }()
	}
	r := b.alloc(name, &VarRef{Var: size}, false)
	if name == "realloc" && len(vals) > 0 && vals[0] != nil {
		b.addUnknownCall(&unknownCall{name: name, pos: b.pos, kind: libcReadOnly, copyDst: r, copySrc: vals[0]})
	}
	return r
}

// threadSpecific models pthread_setspecific(key, v) and
// pthread_getspecific(key) with one thread-local pointer register for all
// keys (tls.go): getspecific returns the value the calling thread last set
// for some key, or NULL (the initial value in every thread). Merging the
// keys only adds values; a thread-local variable a callback template uses
// stays shared (tls.go), which adds other threads' values. The stored
// values are also held by unknown code (clientObjs: a key's destructor,
// a program function called through pthread_key_create, gets them), so
// the callbacks' parameters may point to them. setspecific writes no
// memory of the program and returns any int (0 or an error).
func (b *builder) threadSpecific(name string, x *cc.PostfixExpression, vals []Expr) Expr {
	b.assume(b.pos, "%s: C library model: the calling thread's value (one for all keys)", name)
	if b.specific == nil {
		save := b.pos
		b.pos = token.Position{Filename: b.file}
		b.specific = b.newVar("<pthread_specific>", Global, b.ptrType())
		b.specific.ThreadLocal = true
		b.pos = save
	}
	if name == "pthread_setspecific" {
		if len(vals) >= 2 && vals[1] != nil {
			v := b.temp(b.ptrType())
			b.emit(&Assign{Dst: &VarRef{Var: v}, Src: b.castTo(vals[1], v.Type)})
			b.emit(&Assign{Dst: &VarRef{Var: b.specific}, Src: &VarRef{Var: v}})
			b.clientObjs = append(b.clientObjs, &VarRef{Var: v})
		} else {
			b.emit(&Havoc{Dst: &VarRef{Var: b.specific}})
		}
	}
	st, ok := b.scalarType(x.Type())
	if !ok {
		return nil
	}
	r := b.temp(st)
	if name == "pthread_setspecific" {
		b.emit(&Havoc{Dst: &VarRef{Var: r}})
	} else {
		b.emit(&Assign{Dst: &VarRef{Var: r}, Src: b.castTo(&VarRef{Var: b.specific}, st)})
	}
	return &VarRef{Var: r}
}

// vaArg models __builtin_va_arg_impl(ap): modernc.org/cc lowers
// va_arg(ap, T) to *(T *)__builtin_va_arg_impl(ap), so the call returns
// the address of the next variadic argument's slot. The claim: that slot
// holds one of the arguments some caller passed past a variadic
// function's named parameters, and it is no object of the program (it
// lives in the caller's frame or the register save area, which C gives no
// other name). The model is one blob object, <va_arg>, standing for every
// slot of every call:
//   - its cell is havocked at each va_arg (a weak update of a summary
//     cell: any value of any T, whatever the DFG knew of it before), so no
//     value read from it is ever more precise than "any";
//   - points-to: the cell holds every variadic argument a defined
//     variadic callee received (variadicArgs) and, when unknown code may
//     call a variadic function (a callback or entry template), everything
//     unknown code holds (<reach>): pointsTo.
//
// A va_list the program got from unknown code (a parameter of a callback)
// may address other memory: the result may also point wherever ap points
// (the argument copy of every libcReadOnly result), and ap then holds
// <reach>. va_arg writes nothing, calls nothing and keeps nothing.
// Before, va_arg was an unknown external: it havocked everything the
// address-taken globals reach and spawned every callback at each call.
// Fixtures libc_va_arg.c, variadic_args.c, va_arg_model.c.
func (b *builder) vaArg(name string, x *cc.PostfixExpression, vals []Expr) Expr {
	b.assume(b.pos, "%s: C library model: the address of a variadic argument some caller passed (any value)", name)
	if b.vaArgObj == nil {
		save := b.pos
		b.pos = token.Position{Filename: b.file}
		b.vaArgObj = b.newObject("<va_arg>", GlobalObject, nil, false)
		b.pos = save
	}
	slot := b.vaArgObj.Cells[0]
	b.emit(&Havoc{Dst: &Deref{Addr: b.objAddr(b.vaArgObj), Type: slot.Type}})
	// The argument copy of a C library model's result (pointsTo): the
	// slot may lie in what ap points to.
	uc := &unknownCall{name: name, pos: b.pos, kind: libcReadOnly, args: presentArgs(vals)}
	b.addUnknownCall(uc)
	// The result has the type of an implicitly declared function (int):
	// the caller converts it to T *. Points-to follows the address through
	// the casts; the data flow graph's value of the int is any.
	st, ok := b.scalarType(x.Type())
	if !ok {
		b.fail("%s: result is not a scalar", name)
	}
	r := b.temp(st)
	b.emit(&Assign{Dst: &VarRef{Var: r}, Src: b.castTo(b.objAddr(b.vaArgObj), st)})
	uc.res = r
	return &VarRef{Var: r}
}

// unknownMayCallVariadic reports whether unknown code may call a defined
// variadic function: a callback or entry template (then its variadic
// arguments are anything unknown code holds).
func (b *builder) unknownMayCallVariadic() bool {
	for name, fd := range b.funcs {
		if !b.callbacks[name] && !b.entries[name] {
			continue
		}
		if ft, _ := fd.Declarator.Type().(*cc.FunctionType); ft != nil && ft.IsVariadic() {
			return true
		}
	}
	return false
}

// cancelMachinery are the functions glibc's pthread_cleanup_push and
// pthread_cleanup_pop expand to:
//
//	__pthread_unwind_buf_t buf; ...
//	int not_first = __sigsetjmp_cancel(buf.__cancel_jmp_buf, 0);
//	if (not_first) { routine(arg); __pthread_unwind_next(&buf); }
//	__pthread_register_cancel(&buf);
//	  ... the protected code ...
//	__pthread_unregister_cancel(&buf);
//	if (execute) routine(arg);
//
// The claim: __sigsetjmp_cancel returns nonzero only when the thread
// unwinds through the region, which only pthread_exit or the action on a
// cancellation request (pthread_cancel) starts; a return from the thread
// function or exit() runs no cleanup handler. When the program neither
// calls pthread_exit nor pthread_cancel (directly or through a pointer:
// mayUnwind), and unknown code cancels no thread of the program (the
// assumption of every unknown external: it does not synchronize), so
// __sigsetjmp_cancel returns 0, __pthread_unwind_next is never reached,
// and (un)register_cancel link the buffer into the library's per-thread
// list: they write at most the buffer (libcWrites). Otherwise the four
// stay unknown externals. Before, the four were unknown externals at
// every pthread_cleanup_push (pigz: yarn's ignition). Fixture
// cleanup_push.c.
var cancelMachinery = map[string]bool{
	"__sigsetjmp_cancel": true, "__pthread_register_cancel": true,
	"__pthread_unregister_cancel": true, "__pthread_unwind_next": true,
}

// mayUnwind reports whether the program may unwind a thread through its
// cleanup handlers: it calls pthread_exit or pthread_cancel, or takes the
// address of one.
func (b *builder) mayUnwind() bool {
	calls := b.callSites()
	for _, f := range []string{"pthread_exit", "pthread_cancel"} {
		if calls[f] > 0 || b.addrTaken[f] {
			return true
		}
	}
	return false
}

// setjmp and longjmp (C11 7.13). The claims:
//   - setjmp(env) returns 0 when called, and returns again, with a
//     nonzero value, each time the thread calls longjmp(env, v) while the
//     function that called setjmp is still active (a jump from another
//     thread, or after that function returned, is undefined). It writes
//     only env (libcWrites).
//   - longjmp never returns (its path ends here) and writes no memory.
//   - At the nonzero return, memory is as the thread left it at the
//     longjmp; the calling function's non-volatile locals changed since
//     the setjmp are indeterminate (7.13.2.1p3); other functions' locals
//     are unchanged (a register is no addressable object).
//
// Model: the call branches. One branch returns 0. The other (a
// placeholder, setjmpSite) is expanded after the mod sets are known
// (expandSetjmps) to a havoc of every cell, global or thread-local
// register and register of the calling function that some location
// reachable from the call in its template writes, then returns the
// nonzero value.
// Everything the thread runs between the setjmp and the longjmp is
// reachable from the call: up to the first jump by ordinary edges, and a
// jump lands on the nonzero branch of a setjmp the thread ran in between
// (reachable the same way), whose successors are ordinary edges again.
// Other threads' writes reach the nonzero branch by interference as
// anywhere. Before, both were unknown externals: setjmp's second return
// carried the state of its first (pigz.c's try: a global the try block
// set was proven unchanged in its catch; gcc: changed) and longjmp fell
// through to its successor. Fixture setjmp_longjmp.c.
var setjmpNames = map[string]bool{
	"setjmp": true, "_setjmp": true, "__sigsetjmp": true, "sigsetjmp": true, "__builtin_setjmp": true,
}

var longjmpNames = map[string]bool{
	"longjmp": true, "_longjmp": true, "siglongjmp": true, "__builtin_longjmp": true,
}

// setjmpSite is the nonzero-return branch of a setjmp call.
type setjmpSite struct {
	call *Loc   // the call (what runs after it is reachable from here)
	at   *Loc   // placeholder: the havoc and result expandSetjmps makes
	fr   *frame // the calling function's frame (its registers)
	r    *Var   // setjmp's result register
}

func (b *builder) setjmp(name string, x *cc.PostfixExpression, vals []Expr) Expr {
	b.assume(b.pos, "%s: C library model: returns 0, and nonzero after a longjmp (what the thread may have written since is any value)", name)
	uc := &unknownCall{name: name, pos: b.pos, kind: libcWrites, args: presentArgs(vals)}
	b.addUnknownCall(uc)
	st, ok := b.scalarType(x.Type())
	if !ok {
		b.fail("%s: result is not a scalar", name)
	}
	r := b.temp(st)
	start := b.cur
	b.emit(&Assign{Dst: &VarRef{Var: r}, Src: &Const{Type: st}})
	direct := b.cur
	b.cur = start
	b.setjmps = append(b.setjmps, &setjmpSite{call: uc.loc, at: b.emit(&Skip{}), fr: b.fr, r: r})
	b.cur = union(direct, b.cur)
	return &VarRef{Var: r}
}

func (b *builder) longjmp(name string) {
	b.assume(b.pos, "%s: C library model: does not return (resumes at a setjmp)", name)
	b.emit(&Assume{Cond: &Const{Type: Bool}})
	b.cur = nil
}

// longjmpValue returns the value setjmp returns after every longjmp the
// program can make, when that is one constant: every longjmp call passes
// the same integer constant expression (0 makes setjmp return 1), none
// takes longjmp's address, and no unknown external (which might longjmp
// with any value, as libpng's error handler does) is called.
func (b *builder) longjmpValue() (int64, bool) {
	for n := range longjmpNames {
		if b.addrTaken[n] {
			return 0, false
		}
	}
	for _, uc := range b.unknownCalls {
		if uc.kind == unknownExternal && !uc.dead {
			return 0, false
		}
	}
	var val int64
	seen, ok := false, true
	for _, fd := range b.funcs {
		b.walkBody(fd, func(n cc.Node) {
			pe, isCall := n.(*cc.PostfixExpression)
			if !isCall || pe.Case != cc.PostfixExpressionCall || !longjmpNames[b.calleeName(pe.PostfixExpression)] {
				return
			}
			args := argList(pe.ArgumentExpressionList)
			v, isConst := int64(0), false
			if len(args) == 2 {
				v, isConst = intValue(args[1].Value())
			}
			if v == 0 {
				v = 1
			}
			if !isConst || seen && v != val {
				ok = false
			}
			val, seen = v, true
		})
	}
	return val, ok && seen
}

// expandSetjmps replaces each setjmp's nonzero-return placeholder by
// havocs of what the locations reachable from it write (setjmp above),
// then the result: longjmpValue's constant, else any nonzero value. A
// constant result lets the test of setjmp's result drop the edge into
// its zero arm, as pruneConstBranches does for any `x := c` (that pass
// ran before this one): the zero arm then keeps the state of the first
// return instead of joining the havocked one.
func (b *builder) expandSetjmps() {
	if len(b.setjmps) == 0 {
		return
	}
	val, constant := b.longjmpValue()
	for _, s := range b.setjmps {
		// The registers whose value at the nonzero return may differ from
		// the one at the call: the calling function's (its frame: named
		// locals and parameters; its temporaries live within one
		// expression, and setjmp stands alone in its expression, C11
		// 7.13.1.1p4), global and thread-local ones. A callee's
		// registers belong to a frame the longjmp left; the callee
		// defines them again when it is called again.
		own := map[*Var]bool{}
		if s.fr != nil {
			for _, st := range s.fr.vars {
				if st.reg != nil {
					own[st.reg] = true
				}
			}
		}
		for _, v := range b.tlsRegs {
			own[v] = true
		}
		seen := map[*Loc]bool{s.call: true}
		work := []*Loc{s.call}
		written := map[*Var]bool{}
		var cells, regs []*Var
		for len(work) > 0 {
			l := work[len(work)-1]
			work = work[:len(work)-1]
			for _, v := range writes(l.Act) {
				if written[v] {
					continue
				}
				switch {
				case v.IsCell():
					written[v] = true
					cells = append(cells, v)
				case v.Scope == Global || v.ThreadLocal || own[v]:
					written[v] = true
					regs = append(regs, v)
				}
			}
			for _, n := range l.Succs {
				if !seen[n] && n.Template == s.at.Template {
					seen[n] = true
					work = append(work, n)
				}
			}
		}
		sortVars(cells)
		sortVars(regs)
		var acts []Action
		if len(cells) > 0 {
			acts = append(acts, b.havocCells(cells))
		}
		for _, v := range regs {
			acts = append(acts, &Havoc{Dst: &VarRef{Var: v}})
		}
		ref := &VarRef{Var: s.r}
		if constant && constFits(val, s.r.Type) {
			acts = append(acts, &Assign{Dst: ref, Src: &Const{Type: s.r.Type, Value: val}})
		} else {
			constant = false
			acts = append(acts, &Havoc{Dst: ref}, &Assume{Cond: &Binary{Op: Ne, X: ref, Y: &Const{Type: s.r.Type}, Type: Bool}})
		}
		b.expandPlaceholder(s.at, acts)
		if !constant || b.constBranches == constBranchesOff {
			continue
		}
		last := s.at
		for range acts[1:] {
			last = last.Succs[0]
		}
		var keep []*Loc
		for _, v := range last.Succs {
			if as, ok := v.Act.(*Assume); ok {
				if res, known := evalWith(as.Cond, s.r, val, b.constBranches == constBranchesUnsound); known && res == 0 {
					removePred(v, last)
					continue
				}
			}
			keep = append(keep, v)
		}
		last.Succs = keep
	}
}
