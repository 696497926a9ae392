package interp

import (
	"os"
	"testing"
)

// TestDebugFile prints the IR of $INTERP_DEBUG_FILE and the result of
// interpreting it (a debugging aid; skipped unless the variable is set).
func TestDebugFile(t *testing.T) {
	file := os.Getenv("INTERP_DEBUG_FILE")
	if file == "" {
		t.Skip("INTERP_DEBUG_FILE not set")
	}
	p, err := buildCWithin(file, childTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("INTERP_DEBUG_IR") != "" {
		p.Write(os.Stdout)
	}
	res, err := Run(p, FirstEnabled(), RunOptions{MaxSteps: 5_000_000})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("reason %v after %d steps, error %v, failures %v\noutput:\n%s", res.Reason, res.Steps, res.Error, res.Failures, res.Output)
}
