package dfg

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	checkIncremental = true // every incremental evaluation against a full one
	checkWTO = true         // every weak topological order against the recursive one
	capMinWords = 0         // capped φ search on every cell (checked against the exact one)
	os.Exit(m.Run())
}
