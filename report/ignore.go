package report

import (
	"bytes"
	"regexp"
	"strings"
)

// Ignore is an ignore comment, "// chorus:ignore[kind,...] reason" (or in
// a /* */ comment), on the line of a check or the line above it.
type Ignore struct {
	File   string   `json:"file"`
	Line   int      `json:"line"`
	Kinds  []string `json:"kinds"`            // check kinds (Kinds); empty: the comment names none we know
	Reason string   `json:"reason,omitempty"` // the justification written after the brackets
	Bad    []string `json:"bad,omitempty"`    // kind names not understood
}

var ignoreRE = regexp.MustCompile(`chorus:ignore\[([^\]]*)\]\s*(.*)`)

// ignoreKindNames maps the names an ignore comment may use to kinds: the
// report names, the --checks names, and "all" or "*".
var ignoreKindNames = map[string][]string{
	KindAssert: {KindAssert}, KindBounds: {KindBounds}, KindOverflow: {KindOverflow}, KindDivZero: {KindDivZero}, KindShift: {KindShift},
	"bounds": {KindBounds}, "overflow": {KindOverflow}, "divzero": {KindDivZero}, "shift": {KindShift},
	"all": Kinds, "*": Kinds,
}

// ParseIgnores finds the ignore comments of a source file. It is a line
// scan for the marker after "//" or "/*", not a C lexer: a marker inside a
// string literal that also contains a comment opener is taken for one.
func ParseIgnores(file string, src []byte) []Ignore {
	if !bytes.Contains(src, []byte("chorus:ignore[")) {
		return nil
	}
	var out []Ignore
	for i, line := range strings.Split(string(src), "\n") {
		at := strings.Index(line, "chorus:ignore[")
		if at < 0 {
			continue
		}
		before := line[:at]
		if !strings.Contains(before, "//") && !strings.Contains(before, "/*") {
			continue
		}
		m := ignoreRE.FindStringSubmatch(line[at:])
		if m == nil {
			continue
		}
		ig := Ignore{File: file, Line: i + 1}
		seen := map[string]bool{}
		for _, name := range strings.Split(m[1], ",") {
			name = strings.TrimSpace(name)
			if name == "" {
				continue
			}
			kinds, ok := ignoreKindNames[name]
			if !ok {
				ig.Bad = append(ig.Bad, name)
				continue
			}
			for _, k := range kinds {
				if !seen[k] {
					seen[k] = true
					ig.Kinds = append(ig.Kinds, k)
				}
			}
		}
		reason := strings.TrimSpace(m[2])
		reason = strings.TrimSpace(strings.TrimSuffix(reason, "*/"))
		ig.Reason = reason
		out = append(out, ig)
	}
	return out
}

// ApplyIgnores suppresses each unproven or violated check of f that an
// ignore comment of its file covers (same line or the line above, and a
// kind it names), and records in f.UnusedIgnores the comments of f's own
// file that suppressed nothing. ignores maps a file name (as in
// Check.File) to its comments.
func ApplyIgnores(f *File, ignores map[string][]Ignore) {
	used := map[*Ignore]bool{}
	for i := range f.Checks {
		c := &f.Checks[i]
		if c.Status != Unproven && c.Status != Violated {
			continue
		}
		igs := ignores[c.File]
		for j := range igs {
			ig := &igs[j]
			if ig.Line != c.Line && ig.Line != c.Line-1 {
				continue
			}
			for _, k := range ig.Kinds {
				if k == c.Kind {
					cp := *ig
					c.Suppressed = &cp
					used[ig] = true
					break
				}
			}
			if c.Suppressed != nil {
				break
			}
		}
	}
	f.UnusedIgnores = nil
	if f.Error != "" {
		return // nothing was analysed: no comment can be judged unused
	}
	igs := ignores[f.File]
	for j := range igs {
		if !used[&igs[j]] {
			f.UnusedIgnores = append(f.UnusedIgnores, igs[j])
		}
	}
}
