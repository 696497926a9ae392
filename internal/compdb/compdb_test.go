package compdb

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{`gcc -c a.c`, []string{"gcc", "-c", "a.c"}},
		{`  gcc   -DX="a b"  -o  x.o `, []string{"gcc", "-DX=a b", "-o", "x.o"}},
		{`cc -DS=\"str\" -DQ='"q"' "-DE=" ""`, []string{"cc", `-DS="str"`, `-DQ="q"`, "-DE=", ""}},
		{`cc "a\"b\\c\d" a\ b`, []string{"cc", `a"b\c\d`, "a b"}},
		{"cc\t-I/x\n-c", []string{"cc", "-I/x", "-c"}},
	} {
		got, err := SplitCommand(tc.in)
		if err != nil {
			t.Errorf("SplitCommand(%q): %v", tc.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("SplitCommand(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{`cc "open`, `cc 'open`} {
		if _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q): no error", bad)
		}
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	db := `[
 {"directory": "/src", "file": "a.c", "arguments": ["gcc", "-I.", "-c", "a.c", "-o", "a.o"], "output": "a.o"},
 {"directory": "sub", "file": "/abs/b.c", "command": "cc -DX=\"1 2\" -c /abs/b.c"},
 {"directory": "/src", "file": "../x/./c.c", "arguments": ["gcc", "c.c"]}
]`
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte(db), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{dir, filepath.Join(dir, FileName)} {
		got, err := Load(p)
		if err != nil {
			t.Fatal(err)
		}
		want := []Entry{
			{Index: 0, Directory: "/src", File: "/src/a.c", Output: "/src/a.o", Compiler: "gcc", Args: []string{"-I.", "-c", "a.c", "-o", "a.o"}},
			{Index: 1, Directory: filepath.Join(dir, "sub"), File: "/abs/b.c", Compiler: "cc", Args: []string{"-DX=1 2", "-c", "/abs/b.c"}},
			{Index: 2, Directory: "/src", File: "/x/c.c", Compiler: "gcc", Args: []string{"c.c"}},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Load(%s) =\n%+v\nwant\n%+v", p, got, want)
		}
	}
	for _, bad := range []string{`{}`, `[{"file": "a.c", "arguments": ["cc"]}]`, `[{"directory": "/", "arguments": ["cc"]}]`, `[{"directory": "/", "file": "a.c"}]`} {
		if _, err := Parse([]byte(bad), "/", "db"); err == nil {
			t.Errorf("Parse(%s): no error", bad)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("Load of a missing path: no error")
	}
}
