package cfg

import (
	"fmt"

	"modernc.org/cc/v4"
)

// Constructs the IR does not express precisely are lowered to a sound
// over-approximation (the memory they write gets any value, their result
// is any value), and check's output says so once per construct and site
// (a note:, Program.Assumptions with Note set).

// approx records the approximation of the construct at n.
func (b *builder) approx(n cc.Node, what string) {
	pos := posOf(n)
	if pos.Line == 0 {
		pos = b.pos
	}
	b.note(fmt.Sprintf("approx:%s:%d:%d:%s", pos.Filename, pos.Line, pos.Column, what), pos, "%s (over-approximated)", what)
}
