//go:build !linux

package explore

// threadCPU: no per-thread CPU clock here; Options.CPUTimeout then
// counts wall time (see cpuClock).
func threadCPU() (ns int64, ok bool) { return 0, false }
