package cfg

import (
	"bytes"
	"slices"
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
	if hiddenIdentifiers(src) {
		return predefined, builtin, false
	}
	x := preludeIndexOf(predefined, builtin)
	if x == nil {
		return predefined, builtin, false
	}
	kept := slices.Clone(x.base)
	var queue []string
	use := func(w string) {
		for _, c := range x.byName[w] {
			if !kept[c] {
				kept[c] = true
				queue = append(queue, x.lines[c])
			}
		}
	}
	forEachWord(string(src), use)
	for len(queue) > 0 {
		line := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if strings.Contains(line, "##") {
			// A kept macro pastes tokens: it can form names no text
			// spells.
			return predefined, builtin, false
		}
		forEachWord(line, use)
	}
	return x.join(kept[:x.split], 0), x.join(kept[x.split:], x.split), true
}

// preludeIndex is a prelude split into lines: the candidate lines (#define
// lines of the predefined macros, prototypes of the builtins) by the name
// they define, and the candidates that the prelude's other lines (always
// kept) name, directly or through other candidates.
type preludeIndex struct {
	lines  []string // predefined's lines, then builtin's
	names  []string // the name each candidate line defines; "" for the others
	split  int      // where builtin's lines start
	byName map[string][]int
	base   []bool // by line: kept whatever the unit names
}

var (
	preludeMu      sync.Mutex
	preludeIndexes = map[[2]string]*preludeIndex{}
)

// preludeIndexOf indexes a prelude once per process (nil when it cannot
// be pruned: it has hidden identifiers, or a line that is always kept
// pastes tokens).
func preludeIndexOf(predefined, builtin string) *preludeIndex {
	preludeMu.Lock()
	defer preludeMu.Unlock()
	key := [2]string{predefined, builtin}
	if x, ok := preludeIndexes[key]; ok {
		return x
	}
	x := newPreludeIndex(predefined, builtin)
	preludeIndexes[key] = x
	return x
}

func newPreludeIndex(predefined, builtin string) *preludeIndex {
	if hiddenIdentifiers([]byte(predefined)) || hiddenIdentifiers([]byte(builtin)) {
		return nil
	}
	x := &preludeIndex{byName: map[string][]int{}}
	for _, l := range strings.Split(predefined, "\n") {
		x.lines = append(x.lines, l)
		x.names = append(x.names, macroName(l))
	}
	x.split = len(x.lines)
	for _, l := range strings.Split(builtin, "\n") {
		x.lines = append(x.lines, l)
		x.names = append(x.names, prototypeName(l))
	}
	for i, name := range x.names {
		if name != "" {
			x.byName[name] = append(x.byName[name], i)
		}
	}
	x.base = make([]bool, len(x.lines))
	var queue []int
	use := func(w string) {
		for _, c := range x.byName[w] {
			if !x.base[c] {
				x.base[c] = true
				queue = append(queue, c)
			}
		}
	}
	for i, name := range x.names {
		if name == "" {
			x.base[i] = true
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		if strings.Contains(x.lines[i], "##") {
			return nil // kept whatever the unit names, and it pastes
		}
		forEachWord(x.lines[i], use)
	}
	return x
}

// join is the text of lines [from, from+len(kept)) with the candidate
// lines not kept blanked.
func (x *preludeIndex) join(kept []bool, from int) string {
	var b strings.Builder
	for i, k := range kept {
		if i > 0 {
			b.WriteByte('\n')
		}
		if x.names[from+i] == "" || k {
			b.WriteString(x.lines[from+i])
		}
	}
	return b.String()
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
