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
// parameters hold anything unknown code reaches. A libcCalls result may
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
	// va_arg(ap, T) is *(T *)__builtin_va_arg_impl(ap) (modernc.org/cc):
	// the pointer returned addresses one of the callers' variadic
	// arguments, which may be a pointer into the program's memory (T is
	// not known at the call), so it stays an unknown external, whose
	// result points to anything unknown code reaches.
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
		uc := &unknownCall{name: name, pos: b.pos, kind: libcReadOnly, copyDst: r, copySrc: vals[0]}
		uc.loc = b.emit(&Skip{})
		b.unknownCalls = append(b.unknownCalls, uc)
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
