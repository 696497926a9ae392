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
//   - strdup, strndup, realloc: a fresh heap object (realloc: with the
//     pointers of the old one), like malloc; never NULL.
//
// Functions with callbacks (qsort, bsearch, pthread_once, signal,
// sigaction, atexit) stay unknown externals: their callbacks become
// thread templates.

import "modernc.org/cc/v4"

type libcKind uint8

const (
	unknownExternal libcKind = iota
	libcReadOnly
	libcWrites
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
