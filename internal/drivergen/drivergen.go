// Package drivergen writes synthetic driver-like C programs of a chosen
// size, for measuring how the analysis scales with the code (issues 11
// and 14: growth at most n^1.2). It owns nothing else.
//
// A program has a few devices (structs with a lock, a counter, a ring
// buffer and a statistics word), N handler functions registered in a
// table by main, and worker threads that call handlers through the table
// on random devices, the way a driver's entry points are called by the
// kernel. Each handler locks its device, writes the buffer at an index it
// checked (bounds checks), updates counters with guarded arithmetic
// (overflow checks) and calls shared helpers, so the checks are provable
// and the program stays well-formed at every size. Handlers differ in
// their constants, so no two are textually equal.
package drivergen

import (
	"fmt"
	"strings"
)

// Devices is the number of device structs the handlers share.
const Devices = 4

// bufSize is the length of each device's buffer.
const bufSize = 64

// helpers is the number of shared helper functions.
const helpers = 8

// Program returns a program with n handlers (n ≥ 1); about 22 lines per
// handler plus a constant.
func Program(n int) []byte {
	n = max(n, 1)
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("#include <pthread.h>\n\n")
	w("extern int __VERIFIER_nondet_int(void);\n\n")
	w("#define NDEV %d\n#define BUFSZ %d\n#define NHANDLERS %d\n\n", Devices, bufSize, n)
	w("struct dev {\n\tpthread_mutex_t lock;\n\tint count;\n\tint head;\n\tint buf[BUFSZ];\n\tunsigned int stat;\n};\n\n")
	w("struct dev devs[NDEV];\n")
	w("typedef int (*handler_t)(struct dev *, int);\n")
	w("handler_t handlers[NHANDLERS];\n\n")
	for h := range helpers {
		w("static int helper%d(struct dev *d, int x)\n{\n", h)
		w("\tint i = d->head;\n")
		w("\tif (i >= 0 && i < BUFSZ) {\n\t\td->buf[i] = x + %d;\n\t}\n", h)
		w("\tif (x > -1000 && x < 1000) {\n\t\treturn x * %d;\n\t}\n", h+2)
		w("\treturn 0;\n}\n\n")
	}
	for i := range n {
		k := i%(bufSize/2) + 1
		w("static int handler%d(struct dev *d, int arg)\n{\n", i)
		w("\tint r = 0;\n")
		w("\tpthread_mutex_lock(&d->lock);\n")
		w("\tif (d->head >= 0 && d->head < BUFSZ - %d) {\n", k)
		w("\t\td->buf[d->head + %d] = arg;\n", k-1)
		w("\t\td->head = d->head + 1;\n")
		w("\t} else {\n\t\td->head = 0;\n\t}\n")
		w("\tif (d->count < 1000000) {\n\t\td->count = d->count + %d;\n\t}\n", i%7+1)
		w("\td->stat = d->stat + %du;\n", i%5+1)
		w("\tif (arg >= 0 && arg < %d) {\n", 1000+i)
		w("\t\tr = helper%d(d, arg * %d);\n", i%helpers, i%3+1)
		w("\t}\n")
		w("\tpthread_mutex_unlock(&d->lock);\n")
		w("\treturn r;\n}\n\n")
	}
	w("static void *worker(void *arg)\n{\n")
	w("\twhile (__VERIFIER_nondet_int()) {\n")
	w("\t\tint h = __VERIFIER_nondet_int();\n")
	w("\t\tint k = __VERIFIER_nondet_int();\n")
	w("\t\tif (h >= 0 && h < NHANDLERS && k >= 0 && k < NDEV && handlers[h])\n")
	w("\t\t\thandlers[h](&devs[k], __VERIFIER_nondet_int());\n")
	w("\t}\n\treturn 0;\n}\n\n")
	w("int main(void)\n{\n\tpthread_t t1, t2;\n\tint k;\n")
	w("\tfor (k = 0; k < NDEV; k++)\n\t\tpthread_mutex_init(&devs[k].lock, 0);\n")
	for i := range n {
		w("\thandlers[%d] = handler%d;\n", i, i)
	}
	w("\tpthread_create(&t1, 0, worker, 0);\n")
	w("\tpthread_create(&t2, 0, worker, 0);\n")
	w("\tworker(0);\n")
	w("\treturn 0;\n}\n")
	return []byte(b.String())
}
