package main

import (
	"os"
	"testing"
)

// TestMain lets the test binary serve as the worker processes of the bulk
// run (worker.go starts os.Executable() with CHORUS_WORKER=1), and gives
// the tests a result cache of their own.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	dir, err := os.MkdirTemp("", "chorus-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
