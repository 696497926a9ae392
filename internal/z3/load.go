package z3

//go:generate sh -c "go run gen_load.go > load.c"

// libz3 is opened when the first Context is made, not when the process
// starts: linked normally, the dynamic loader maps libz3 and libstdc++ and
// runs Z3's static constructors in every chorus process (about 1.5 ms of
// CPU and a hundred page faults each), while most runs never make a
// Context (chorus check's parent process never does; a worker only when a
// compat query needs Z3). load.c defines each Z3 function the package
// calls and forwards it to the one found here.

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include <stdlib.h>

const char *z3_load(void *lib);

static void *z3_open(const char *name) { return dlopen(name, RTLD_NOW | RTLD_LOCAL); }
static const char *z3_dlerror(void) { return dlerror(); }
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"unsafe"
)

// libNames are the names libz3 is looked up by, in order: the development
// link (what -lz3 links against) and Debian's runtime soname.
var libNames = []string{"libz3.so", "libz3.so.4"}

var (
	loadOnce sync.Once
	loadErr  error
)

// load opens libz3 and resolves the functions of load.c, once per
// process. Without libz3 every Context reports the error (Err) and every
// Check fails with it.
func load() error {
	loadOnce.Do(func() { loadErr = openLib(libNames) })
	return loadErr
}

// openLib opens the first of names that dlopen finds and resolves the
// functions of load.c in it.
func openLib(names []string) error {
	var tried []string
	for _, name := range names {
		cname := C.CString(name)
		lib := C.z3_open(cname)
		C.free(unsafe.Pointer(cname))
		if lib == nil {
			tried = append(tried, C.GoString(C.z3_dlerror()))
			continue
		}
		if missing := C.z3_load(lib); missing != nil {
			return fmt.Errorf("z3: %s has no %s", name, C.GoString(missing))
		}
		return nil
	}
	return fmt.Errorf("z3: cannot load libz3 (install libz3-dev): %s", strings.Join(tried, "; "))
}
