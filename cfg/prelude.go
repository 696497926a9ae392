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
	base   []bool          // by line: kept whatever the unit names
	words  map[string]bool // every word of the prelude
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
	x.words = map[string]bool{}
	for _, l := range x.lines {
		forEachWord(l, func(w string) { x.words[w] = true })
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

// pruneUnit is the prelude and the file of a whole unit, pruned
// (prunePrelude, blankUnusedPrototypes); ok is false, and nothing is
// pruned, when the prelude or the file can form names its text does not
// spell.
func pruneUnit(predefined, builtin string, src []byte) (pre, bi string, file []byte, ok bool) {
	pre, bi, ok = prunePrelude(predefined, builtin, src)
	if !ok {
		return predefined, builtin, src, false
	}
	x := preludeIndexOf(predefined, builtin)
	return pre, bi, blankUnusedPrototypes(src, func(w string) bool { return x.words[w] }), true
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

// The file of a whole unit can be pruned the same way: an SV-COMP task
// or a CIL file holds the prototypes of every function of the headers it
// was preprocessed with (half the bytes of a typical task), and cc parses
// and type checks each. A file-scope declaration whose only effect is to
// declare one function that nothing else in the unit names cannot change
// the unit: no expression or declaration refers to that function, its
// linkage matters only to other declarations of the name (there are
// none), and its parameters are in a scope of their own.
// blankUnusedPrototypes blanks such declarations (spaces; newlines stay,
// so every position in the file is unchanged), recognizing them by a
// shape that admits nothing else:
//
//	SPECIFIERS NAME ( PARAMETERS ) ATTRIBUTES ;
//
// at file scope (outside any parentheses, brackets or braces), where
// SPECIFIERS are identifiers, '*' and __attribute__((...)) groups (at
// least one identifier), PARAMETERS are balanced, ATTRIBUTES are
// __attribute__((...)) and __asm__("...") groups, and the declaration has
// no brace, no struct, union, enum or typedef (which could declare a tag,
// an enumeration constant or a type that other code names), no comment
// and no directive line. NAME is no keyword (_Atomic(...), typeof(...),
// _Pragma(...), ... are kept), occurs nowhere else in the file or the
// prelude (each word of the file is counted, strings and comments
// included, which only keeps more), and is not a name whose declaration
// alone the lowering reads (declarationMatters).

// blankUnusedPrototypes returns src with those declarations blanked (src
// itself when there are none). inPrelude reports whether the prelude
// spells a word. The caller must guarantee what prunePrelude needs
// (wholeUnitText): the file defines no macro and includes nothing, so its
// text is its token stream.
func blankUnusedPrototypes(src []byte, inPrelude func(string) bool) []byte {
	// Digraphs and trigraphs can spell braces and brackets the scan below
	// does not see.
	if hiddenIdentifiers(src) || bytes.Contains(src, []byte("??")) ||
		bytes.Contains(src, []byte("<%")) || bytes.Contains(src, []byte("%>")) ||
		bytes.Contains(src, []byte("<:")) || bytes.Contains(src, []byte(":>")) {
		return src
	}
	counts := map[string]int{}
	forEachWord(string(src), func(w string) { counts[w]++ })
	var out []byte
	depth := 0
	start := -1   // the first byte of the current declaration, -1 before it
	clean := true // no comment, brace or directive since start
	lineStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c == '\n' {
			lineStart = true
			continue
		}
		if c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' {
			continue
		}
		atLineStart := lineStart
		lineStart = false
		switch {
		case c == '#' && atLineStart:
			// A directive line (a line marker or #pragma: wholeUnitText).
			if start >= 0 {
				clean = false
			}
			for i < len(src) && src[i] != '\n' {
				i++
			}
			i-- // the newline sets lineStart
			continue
		case c == '/' && i+1 < len(src) && (src[i+1] == '*' || src[i+1] == '/'):
			if start >= 0 {
				clean = false
			}
			if src[i+1] == '/' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				i--
			} else {
				end := bytes.Index(src[i+2:], []byte("*/"))
				if end < 0 {
					return src // an unterminated comment: leave it to cc
				}
				i += 2 + end + 1
			}
			continue
		}
		if start < 0 {
			start, clean = i, true
		}
		switch c {
		case '"', '\'':
			j := i + 1
			for j < len(src) && src[j] != c && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(src) || src[j] != c {
				return src // an unterminated literal: leave it to cc
			}
			i = j
		case '{':
			clean = false
			depth++
		case '(', '[':
			depth++
		case ')', ']', '}':
			depth--
			if depth < 0 {
				return src
			}
			if c == '}' && depth == 0 {
				start = -1 // a function body or a tag's members ended
			}
		case ';':
			if depth == 0 {
				if clean {
					if name := unusedPrototype(src[start:i+1], counts, inPrelude); name != "" {
						if out == nil {
							out = slices.Clone(src)
						}
						for k := start; k <= i; k++ {
							if out[k] != '\n' {
								out[k] = ' '
							}
						}
					}
				}
				start = -1
			}
		}
	}
	if out == nil {
		return src
	}
	return out
}

// unusedPrototype is the name decl (a file-scope declaration ending in
// ';', no brace, comment or directive in it) declares when it has the
// shape blankUnusedPrototypes drops and the name occurs once in the file
// and not in the prelude; "" otherwise.
func unusedPrototype(decl []byte, counts map[string]int, inPrelude func(string) bool) string {
	toks := protoTokens(decl)
	if toks == nil {
		return ""
	}
	i := 0
	// group skips a balanced parenthesized group starting at toks[j].
	group := func(j int) int {
		if j >= len(toks) || toks[j] != "(" {
			return -1
		}
		d := 0
		for ; j < len(toks); j++ {
			switch toks[j] {
			case "(":
				d++
			case ")":
				d--
				if d == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	specifiers := 0
	name := ""
	for name == "" {
		if i >= len(toks) {
			return ""
		}
		t := toks[i]
		switch {
		case t == "*":
			i++
		case isAttributeWord(t):
			if i = group(i + 1); i < 0 {
				return ""
			}
		case isWordByte(t[0]) && !(t[0] >= '0' && t[0] <= '9'):
			if protoRefused[t] {
				return ""
			}
			if i+1 < len(toks) && toks[i+1] == "(" {
				name = t
				break
			}
			specifiers++
			i++
		default:
			return ""
		}
	}
	if specifiers == 0 || counts[name] != 1 || inPrelude(name) || declarationMatters(name) {
		return ""
	}
	if i = group(i + 1); i < 0 {
		return ""
	}
	for i < len(toks) && toks[i] != ";" {
		if !isAttributeWord(toks[i]) && !isAsmWord(toks[i]) {
			return ""
		}
		if i = group(i + 1); i < 0 {
			return ""
		}
	}
	if i != len(toks)-1 {
		return ""
	}
	// No word of the declaration may declare a tag or a type.
	for _, t := range toks {
		if t == "struct" || t == "union" || t == "enum" || t == "typedef" {
			return ""
		}
	}
	return name
}

// protoTokens splits a declaration into words (identifiers and numbers),
// string and character literals, and single punctuation bytes; nil when
// it holds a byte outside what a prototype is written with.
func protoTokens(decl []byte) []string {
	var toks []string
	s := string(decl)
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
			i++
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil
			}
			toks = append(toks, s[i:j+1])
			i = j + 1
		case strings.IndexByte("()[]*,;.&=<>+-|^!~?:/%", c) >= 0:
			toks = append(toks, s[i:i+1])
			i++
		default:
			return nil
		}
	}
	return toks
}

// declarationMatters reports whether the lowering reads the mere
// declaration of a function of this name, called or not: a unit that
// declares reach_error or __VERIFIER_error follows SV-COMP's convention
// and abort() is no failure there (abortIsError, assert.go). The other
// SV-COMP and entry names are kept too.
func declarationMatters(name string) bool {
	return name == "reach_error" || name == "main" || name == "pthread_create" || strings.HasPrefix(name, "__VERIFIER_")
}

func isAttributeWord(t string) bool {
	return t == "__attribute__" || t == "__attribute"
}

func isAsmWord(t string) bool {
	return t == "__asm__" || t == "__asm" || t == "asm"
}

// protoRefused are the words that may not be the name or a specifier of a
// dropped prototype: keywords that take a parenthesized operand or
// declare something besides the function (a name followed by '(' must be
// the declared function).
var protoRefused = map[string]bool{
	"struct": true, "union": true, "enum": true, "typedef": true,
	"_Atomic": true, "_Alignas": true, "_Alignof": true, "__alignof__": true, "__alignof": true,
	"typeof": true, "__typeof__": true, "__typeof": true, "typeof_unqual": true, "__typeof_unqual__": true,
	"_Static_assert": true, "static_assert": true, "_Pragma": true, "__pragma": true, "_Generic": true,
	"sizeof": true, "__declspec": true,
	"asm": true, "__asm": true, "__asm__": true, "__attribute__": true, "__attribute": true,
	"_BitInt": true, "__builtin_va_arg": true, "__builtin_offsetof": true,
	"__auto_type": true, "auto": true, "register": true, "if": true, "while": true, "for": true,
	"switch": true, "return": true, "do": true, "else": true, "case": true, "default": true,
	"goto": true, "break": true, "continue": true,
}
