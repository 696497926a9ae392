package cfg

import (
	"bytes"
	"strings"
	"sync"
)

// The prelude of a translation unit is the host compiler's predefined
// macros (about 350 #define lines) and cc.Builtin (about 200 prototypes of
// __builtin_* functions). cc preprocesses, parses and type checks all of
// it for every file, a third of cc.Translate on a small SV-COMP task. A
// definition or declaration that nothing in the unit names cannot change
// the unit: an unused macro expands nowhere, and a prototype of a
// function that is never called, declared again or otherwise named adds
// one unused file-scope identifier. prunePrelude blanks those lines (each
// becomes an empty line, so that positions in the prelude stay the
// same), when every identifier the unit can name is visible in its text.

// prunePreludes enables prunePrelude in translateFile (the tests compare
// with the whole prelude).
var prunePreludes = true

// prunePrelude returns predefined and builtin without the #define lines
// and prototype lines whose names nothing in src, in the kept prelude, or
// in what a kept line names, spells. The caller must guarantee that src
// is the whole unit (streamCannotBeCut: no #include, no #define, no
// command-line macros or forced includes), so that every identifier of
// the token stream is either spelled in src or produced by a kept macro.
// ok is false (and the texts are returned unchanged) when an identifier
// could be formed in a way a word scan does not see: a line splice (a
// backslash before a newline can join two words into one), a trigraph
// "??/" (a backslash), a universal character name (\u0041 spells "A"),
// or a kept macro that pastes tokens (##).
func prunePrelude(predefined, builtin string, src []byte) (string, string, bool) {
	if hiddenIdentifiers(src) || hiddenIdentifiers([]byte(predefined)) || hiddenIdentifiers([]byte(builtin)) {
		return predefined, builtin, false
	}
	pre := splitPrelude(predefined, macroName)
	bi := builtinPrelude(builtin)
	// byName: the candidate lines (macros and prototypes) named by a word.
	type lineRef struct {
		p *preludeText
		i int
	}
	byName := map[string][]lineRef{}
	for _, p := range []*preludeText{&pre, &bi} {
		for i, name := range p.names {
			if name != "" {
				byName[name] = append(byName[name], lineRef{p, i})
			}
		}
	}
	keptPre := make([]bool, len(pre.lines))
	keptBi := make([]bool, len(bi.lines))
	kept := func(r lineRef) *bool {
		if r.p == &pre {
			return &keptPre[r.i]
		}
		return &keptBi[r.i]
	}
	seen := map[string]bool{}
	var queue []string
	push := func(text string) {
		forEachWord(text, func(w string) {
			if !seen[w] {
				seen[w] = true
				queue = append(queue, w)
			}
		})
	}
	push(string(src))
	for _, p := range []*preludeText{&pre, &bi} {
		for i, name := range p.names {
			if name == "" {
				push(p.lines[i]) // not a candidate: always kept
			}
		}
	}
	for len(queue) > 0 {
		w := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, r := range byName[w] {
			k := kept(r)
			if *k {
				continue
			}
			*k = true
			line := r.p.lines[r.i]
			if strings.Contains(line, "##") {
				// A kept macro pastes tokens: it can form names no text
				// spells.
				return predefined, builtin, false
			}
			push(line)
		}
	}
	for _, p := range []*preludeText{&pre, &bi} {
		for i, name := range p.names {
			if name == "" && strings.Contains(p.lines[i], "##") {
				return predefined, builtin, false
			}
		}
	}
	return pre.join(keptPre), bi.join(keptBi), true
}

// hiddenIdentifiers reports whether text can form an identifier that is
// not a run of identifier characters in it: a backslash before a newline
// (possibly with blanks between, which gcc accepts), the trigraph of a
// backslash, or a universal character name.
func hiddenIdentifiers(text []byte) bool {
	if bytes.Contains(text, []byte("??/")) {
		return true
	}
	for i := bytes.IndexByte(text, '\\'); i >= 0; {
		j := i + 1
		for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\f' || text[j] == '\v') {
			j++
		}
		if j == len(text) || text[j] == '\n' || text[j] == 'u' || text[j] == 'U' {
			return true
		}
		k := bytes.IndexByte(text[j:], '\\')
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}

// forEachWord calls f with each maximal run of identifier characters
// ([A-Za-z0-9_]) of text. Every identifier token of a text without hidden
// identifiers is such a run, or contains characters outside the set ('$',
// letters beyond ASCII) and then names no prelude line, whose names are
// ASCII; runs that are parts of numbers, strings or comments only keep
// more lines.
func forEachWord(text string, f func(string)) {
	start := -1
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isWordByte(text[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			f(text[start:i])
			start = -1
		}
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// preludeText is a prelude source split into lines, with the name of each
// candidate line ("" for a line that is always kept).
type preludeText struct {
	lines []string
	names []string
}

func splitPrelude(text string, name func(string) string) preludeText {
	lines := strings.Split(text, "\n")
	p := preludeText{lines: lines, names: make([]string, len(lines))}
	for i, l := range lines {
		p.names[i] = name(l)
	}
	return p
}

// join is the text with the candidate lines not kept blanked.
func (p *preludeText) join(kept []bool) string {
	var b strings.Builder
	for i, l := range p.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if p.names[i] == "" || kept[i] {
			b.WriteString(l)
		}
	}
	return b.String()
}

// macroName is the name a "#define NAME..." line defines ("" for any
// other line, which is always kept).
func macroName(line string) string {
	rest, ok := strings.CutPrefix(line, "#define ")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, " \t")
	n := 0
	for n < len(rest) && isWordByte(rest[n]) {
		n++
	}
	if n == 0 || rest[0] >= '0' && rest[0] <= '9' {
		return ""
	}
	if n < len(rest) && rest[n] != ' ' && rest[n] != '\t' && rest[n] != '(' {
		return ""
	}
	return rest[:n]
}

// prototypeName is the function a one-line prototype of cc.Builtin
// declares, as in "void *__builtin_memcpy(void *dest, ...);" ("" for any
// other line, which is always kept: directives, typedefs, declarations of
// objects, comments, and anything this does not recognize).
func prototypeName(line string) string {
	l := strings.TrimSpace(line)
	if l == "" || l[0] == '#' || strings.HasPrefix(l, "typedef") || !strings.HasSuffix(l, ");") ||
		strings.Contains(l, "/*") || strings.Contains(l, "*/") || strings.Contains(l, "//") ||
		strings.Contains(l, "(*") || strings.Count(l, ";") != 1 || strings.ContainsAny(l, "{}=\\\"'") {
		return ""
	}
	open := strings.IndexByte(l, '(')
	head := strings.TrimRight(l[:open], " \t")
	n := len(head)
	for n > 0 && isWordByte(head[n-1]) {
		n--
	}
	name := head[n:]
	if !strings.HasPrefix(name, "__") || n == 0 {
		return "" // a return type must come first; builtins start with __
	}
	return name
}

// builtinPrelude is cc.Builtin split once per process (it is a
// constant); other texts are split on each call.
var builtinPrelude = func() func(string) preludeText {
	var once sync.Once
	var text string
	var split preludeText
	return func(builtin string) preludeText {
		once.Do(func() { text, split = builtin, splitPrelude(builtin, prototypeName) })
		if builtin != text {
			return splitPrelude(builtin, prototypeName)
		}
		return split
	}
}()
