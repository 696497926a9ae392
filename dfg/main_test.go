package dfg

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	checkIncremental = true // every incremental evaluation against a full one
	checkWTO = true         // every weak topological order against the recursive one
	os.Exit(m.Run())
}
