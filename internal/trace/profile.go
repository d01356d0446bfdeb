package trace

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// StartProfiles writes a CPU profile to $KNIGHTCODE_CPUPROFILE and, at
// the end, a heap profile to $KNIGHTCODE_MEMPROFILE, for `go tool pprof`:
// the benchmarks' figures say how much, a profile says where. The returned
// function stops and writes them.
func StartProfiles() func() {
	var stops []func()
	if path := os.Getenv("KNIGHTCODE_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err != nil {
			fmt.Fprintln(os.Stderr, "knightcode-desktop: cpu profile:", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "knightcode-desktop: cpu profile:", err)
			f.Close()
		} else {
			stops = append(stops, func() {
				pprof.StopCPUProfile()
				f.Close()
			})
		}
	}
	if path := os.Getenv("KNIGHTCODE_MEMPROFILE"); path != "" {
		stops = append(stops, func() {
			f, err := os.Create(path)
			if err != nil {
				fmt.Fprintln(os.Stderr, "knightcode-desktop: heap profile:", err)
				return
			}
			defer f.Close()
			runtime.GC()
			if err := pprof.WriteHeapProfile(f); err != nil {
				fmt.Fprintln(os.Stderr, "knightcode-desktop: heap profile:", err)
			}
		})
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}
