package dfg

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

var rdStat = os.Getenv("CHORUS_RDSTAT") != ""

func rdStatf(format string, a ...any) {
	if rdStat {
		fmt.Fprintf(os.Stderr, format, a...)
	}
}

var _ = time.Now

func cpuMS() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Sec*1000+ru.Stime.Sec*1000) + float64(ru.Utime.Usec+ru.Stime.Usec)/1000
}
