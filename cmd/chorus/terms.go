package main

// Conditions in source terms for SV-COMP's error-call pattern: a check
// "reach_error() reachable" (or __VERIFIER_error) written as
//
//	if (!(cond)) { ERROR: reach_error(); }
//
// is an assertion of cond; its message says "assertion cond" as the
// source reads, and for another if-condition c, "assertion !(c)". The
// condition is read from the source lines (the lowered program has only
// the path to the call). Rendering only: statuses are untouched.

import (
	"os"
	"regexp"
	"strings"
	"sync"

	"chorus/analysis"
)

var (
	sourceLinesMu sync.Mutex
	sourceLines   = map[string][]string{}
)

// lineOf returns line n (1-based) of file, "" when unreadable.
func lineOf(file string, n int) string {
	sourceLinesMu.Lock()
	lines, ok := sourceLines[file]
	if !ok {
		if data, err := os.ReadFile(file); err == nil {
			lines = strings.Split(string(data), "\n")
		}
		sourceLines[file] = lines
	}
	sourceLinesMu.Unlock()
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

var errorCallRE = regexp.MustCompile(`\b(reach_error|__VERIFIER_error)\s*\(`)

// checkCondition is the property of check c in source terms: for an
// error call guarded by an if, "assertion COND"; otherwise the check's
// own description.
func checkCondition(c analysis.CheckResult) string {
	msg := c.Check.Msg
	if !strings.HasSuffix(msg, "() reachable") {
		return msg
	}
	p := c.Check.Pos
	line := lineOf(p.Filename, p.Line)
	loc := errorCallRE.FindStringIndex(line)
	if loc == nil {
		return msg
	}
	// The if is on the call's line, before the call, or on one of the two
	// lines above ("if (c) {" then "ERROR: reach_error();").
	text := line[:loc[0]]
	for back := 1; back <= 2 && !strings.Contains(text, "if"); back++ {
		text = lineOf(p.Filename, p.Line-back) + "\n" + text
	}
	cond, ok := ifCondition(text)
	if !ok {
		return msg
	}
	if inner, neg := negated(cond); neg {
		return "assertion " + inner
	}
	return "assertion !(" + cond + ")"
}

var ifRE = regexp.MustCompile(`\bif\s*\(`)

// ifCondition extracts the condition of the last "if (" in text, up to
// its balanced closing parenthesis.
func ifCondition(text string) (string, bool) {
	all := ifRE.FindAllStringIndex(text, -1)
	if len(all) == 0 {
		return "", false
	}
	start := all[len(all)-1][1]
	depth := 1
	for i := start; i < len(text); i++ {
		switch text[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				cond := strings.Join(strings.Fields(text[start:i]), " ")
				return cond, cond != ""
			}
		}
	}
	return "", false
}

// negated recognizes "!(x)" (the whole condition) and returns x.
func negated(cond string) (string, bool) {
	if !strings.HasPrefix(cond, "!") {
		return "", false
	}
	rest := strings.TrimSpace(cond[1:])
	if !strings.HasPrefix(rest, "(") || !strings.HasSuffix(rest, ")") {
		return "", false
	}
	depth := 0
	for i, ch := range rest {
		switch ch {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(rest)-1 {
				return "", false // "!(a) && (b)"
			}
		}
	}
	return strings.TrimSpace(rest[1 : len(rest)-1]), true
}
