package cfg

import (
	"bytes"
	"go/token"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Positions in preprocessed input. gcc -E output carries line markers
// ("# 12 "src/x.c" 2" or "#line 12 "src/x.c""); cc reports positions in the
// .i file itself. An error in the main file is moved to the original file
// and line its nearest preceding marker names, so that it points at the
// source the user wrote.

var lineMarkerRE = regexp.MustCompile(`^#\s*(?:line\s+)?(\d+)\s+"((?:[^"\\]|\\.)*)"`)

// originalPos maps line (1-based) of src through its line markers; ok is
// false when no marker precedes it.
func originalPos(src []byte, line int) (file string, orig int, ok bool) {
	n := 0
	for len(src) > 0 && n < line-1 {
		i := bytes.IndexByte(src, '\n')
		var l []byte
		if i < 0 {
			l, src = src, nil
		} else {
			l, src = src[:i], src[i+1:]
		}
		n++
		if len(l) == 0 || l[0] != '#' {
			continue
		}
		if m := lineMarkerRE.FindSubmatch(l); m != nil {
			v, err := strconv.Atoi(string(m[1]))
			if err != nil {
				continue
			}
			file, orig, ok = unescapeMarker(string(m[2])), v-1, true
			// the marker's line number is that of the next line
			orig -= n
		}
	}
	if !ok {
		return "", 0, false
	}
	return file, orig + line, true
}

func unescapeMarker(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	if u, err := strconv.Unquote(`"` + s + `"`); err == nil {
		return u
	}
	return s
}

// mapError moves e to the original source when it lies in filename (whose
// contents are src) after a line marker, and adds a hint for errors that
// usually mean missing compiler flags.
func mapError(e *Error, filename string, src []byte) *Error {
	if e == nil {
		return nil
	}
	out := *e
	// cc appends where in its own code an error was raised.
	if i := strings.LastIndex(out.Msg, " ("); i >= 0 && strings.HasSuffix(out.Msg, ":)") && strings.Contains(out.Msg[i:], ".go:") {
		out.Msg = out.Msg[:i]
	}
	if out.Pos.Filename == filename && out.Pos.Line > 0 && (bytes.HasPrefix(src, []byte("#")) || bytes.Contains(src, []byte("\n#"))) {
		if f, l, ok := originalPos(src, out.Pos.Line); ok && f != "" && !strings.HasPrefix(f, "<") {
			out.Pos = token.Position{Filename: f, Line: l, Column: out.Pos.Column}
			out.Msg += " (" + filename + ":" + strconv.Itoa(e.Pos.Line) + " in the preprocessed file)"
		}
	}
	if strings.HasPrefix(out.Msg, "unexpected identifier") {
		if prev := identBefore(out.Pos, filename, src); prev != "" {
			out.Msg += " (after " + prev + ", which is not a type here)"
		}
	}
	if h := flagHint(out.Msg); h != "" && !strings.Contains(out.Msg, "hint:") {
		out.Msg += "; hint: " + h
	}
	return &out
}

// flagHint says which flags an error usually means are missing.
func flagHint(msg string) string {
	switch {
	case strings.HasPrefix(msg, "include file not found"):
		return "give the build's include directories (-I DIR, -isystem DIR) or its compile database (-p BUILD_DIR)"
	case strings.HasPrefix(msg, "undefined: "):
		return "a macro or declaration the build provides may be missing: give its -D/-include flags or its compile database (-p BUILD_DIR)"
	case strings.HasPrefix(msg, "unexpected "), strings.Contains(msg, "expected "):
		return "if this compiles with the project's build, a macro it defines may be missing (-D, -include, -std=) or use -p BUILD_DIR"
	}
	return ""
}

// identBefore is the identifier that ends before the error's column on
// its line ("bool" in "bool failed;" when bool is not declared), "" when
// there is none or the file cannot be read.
func identBefore(pos token.Position, filename string, src []byte) string {
	data := src
	if pos.Filename != filename {
		d, err := os.ReadFile(pos.Filename)
		if err != nil {
			return ""
		}
		data = d
	}
	lines := bytes.SplitN(data, []byte("\n"), pos.Line+1)
	if pos.Line < 1 || pos.Line > len(lines) {
		return ""
	}
	line := lines[pos.Line-1]
	i := pos.Column - 1
	if i > len(line) || i < 0 {
		return ""
	}
	j := i
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && isIdent(line[k-1]) {
		k--
	}
	if k == j || line[k] >= '0' && line[k] <= '9' || cKeywords[string(line[k:j])] {
		return ""
	}
	return string(line[k:j])
}
