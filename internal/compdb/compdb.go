// Package compdb reads a JSON compilation database (compile_commands.json,
// https://clang.llvm.org/docs/JSONCompilationDatabase.html), as written by
// CMake (-DCMAKE_EXPORT_COMPILE_COMMANDS=ON), Meson, Bear and others.
//
// Each entry is one compile step: its working directory, its main source
// file, its arguments (the "arguments" array, or the "command" string split
// as a shell would, with '"', '\” and '\\' the special characters and no
// expansion) and optionally its output. Relative paths are resolved as the
// specification says: "directory" against the database's own directory,
// "file" and "output" against "directory".
package compdb

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// FileName is the database's file name inside a build directory.
const FileName = "compile_commands.json"

// Entry is one compile command.
type Entry struct {
	Index     int      // position in the database (0-based)
	Directory string   // absolute working directory
	File      string   // absolute, cleaned path of the main source file
	Output    string   // absolute path of the output ("" when not recorded)
	Compiler  string   // argv[0]
	Args      []string // argv[1:]: flags and file names as the compiler got them
}

type rawEntry struct {
	Directory string   `json:"directory"`
	File      string   `json:"file"`
	Arguments []string `json:"arguments"`
	Command   string   `json:"command"`
	Output    string   `json:"output"`
}

// Path is the database file named by p: p itself, or p/compile_commands.json
// when p is a directory.
func Path(p string) (string, error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		p = filepath.Join(p, FileName)
		if _, err := os.Stat(p); err != nil {
			return "", err
		}
	}
	return p, nil
}

// Load reads the database at p (a file, or a directory holding
// compile_commands.json).
func Load(p string) ([]Entry, error) {
	file, err := Path(p)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	base, err := filepath.Abs(filepath.Dir(file))
	if err != nil {
		return nil, err
	}
	return Parse(data, base, file)
}

// Parse reads database contents; base is the directory relative
// "directory" fields are resolved against, name is used in errors.
func Parse(data []byte, base, name string) ([]Entry, error) {
	var raw []rawEntry
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	out := make([]Entry, 0, len(raw))
	for i, r := range raw {
		where := fmt.Sprintf("%s: entry %d", name, i)
		if r.File == "" {
			return nil, fmt.Errorf("%s: no \"file\"", where)
		}
		if r.Directory == "" {
			return nil, fmt.Errorf("%s: no \"directory\"", where)
		}
		argv := r.Arguments
		if len(argv) == 0 {
			if r.Command == "" {
				return nil, fmt.Errorf("%s: neither \"arguments\" nor \"command\"", where)
			}
			var err error
			argv, err = SplitCommand(r.Command)
			if err != nil {
				return nil, fmt.Errorf("%s: \"command\": %v", where, err)
			}
			if len(argv) == 0 {
				return nil, fmt.Errorf("%s: empty \"command\"", where)
			}
		}
		dir := r.Directory
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(base, dir)
		}
		dir = filepath.Clean(dir)
		e := Entry{Index: i, Directory: dir, File: resolve(dir, r.File), Compiler: argv[0], Args: argv[1:]}
		if r.Output != "" {
			e.Output = resolve(dir, r.Output)
		}
		out = append(out, e)
	}
	return out, nil
}

func resolve(dir, p string) string {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	return filepath.Clean(p)
}

// SplitCommand splits a "command" string into arguments: blanks separate
// arguments; double quotes group (a backslash in them escapes '"' and
// '\\'), single quotes group literally, and a backslash outside quotes
// escapes the next character. There is no other expansion.
func SplitCommand(s string) ([]string, error) {
	var (
		args []string
		cur  strings.Builder
		have bool // cur is an argument (possibly empty: "")
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if have {
				args = append(args, cur.String())
				cur.Reset()
				have = false
			}
		case c == '\\':
			if i+1 < len(s) {
				i++
				cur.WriteByte(s[i])
			}
			have = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated single quote")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += 1 + j
			have = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated double quote")
			}
			have = true
		default:
			cur.WriteByte(c)
			have = true
		}
	}
	if have {
		args = append(args, cur.String())
	}
	return args, nil
}
