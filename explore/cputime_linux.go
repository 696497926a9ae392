package explore

import "syscall"

// threadCPU is the CPU time (user + system) the calling OS thread has
// used, in nanoseconds; ok is false when the kernel does not say.
func threadCPU() (ns int64, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return ru.Utime.Nano() + ru.Stime.Nano(), true
}
