package dfg

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	checkIncremental = true // every incremental evaluation against a full one
	os.Exit(m.Run())
}
