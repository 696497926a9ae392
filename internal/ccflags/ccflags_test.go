package ccflags

import (
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args string
		dir  string
		want Flags
	}{
		{"-DX -DY=2 -UX -D Z=a=b", "", Flags{Macros: []Macro{{Name: "X", Value: "1"}, {Name: "Y", Value: "2"}, {Name: "X", Undef: true}, {Name: "Z", Value: "a=b"}}}},
		{"-DF(a,b)=a+b -DE=", "", Flags{Macros: []Macro{{Name: "F(a,b)", Value: "a+b"}, {Name: "E", Value: ""}}}},
		{"-I. -I inc -I/abs -iquote q -isystem s -idirafter z", "/w", Flags{
			IncludeDirs: []string{"/w", "/w/inc", "/abs"}, QuoteDirs: []string{"/w/q"}, SystemDirs: []string{"/w/s"}, AfterDirs: []string{"/w/z"}}},
		{"-Irel", "", Flags{IncludeDirs: []string{"rel"}}},
		{"-include config.h -include/abs/x.h", "/w", Flags{ForcedIncludes: []string{"/w/config.h", "/abs/x.h"}}},
		{"-std=gnu11 -m32", "", Flags{Std: "gnu11", DataModel: "ILP32"}},
		{"-m32 -m64 -ansi", "", Flags{Std: "c90", DataModel: "LP64"}},
		{"-pthread -x c", "", Flags{Pthread: true, Lang: "c"}},
		{"-c -o out.o a.c", "/w", Flags{Output: "/w/out.o", Ignored: []string{"-c"}, Files: []string{"a.c"}}},
		{"-O2 -O -Os -Wall -Wno-unused -Werror=format -w -pedantic -pedantic-errors -g -g3 -ggdb", "", Flags{
			Ignored: []string{"-O2", "-O", "-Os", "-Wall", "-Wno-unused", "-Werror=format", "-w", "-pedantic", "-pedantic-errors", "-g", "-g3", "-ggdb"}}},
		{"-fPIC -fno-omit-frame-pointer -fstack-protector-strong -fprofile-arcs -ftest-coverage -fsigned-char -ftrapv", "", Flags{
			Ignored: []string{"-fPIC", "-fno-omit-frame-pointer", "-fstack-protector-strong", "-fprofile-arcs", "-ftest-coverage", "-fsigned-char", "-ftrapv"}}},
		{"-march=native -mtune=generic -msse4.2 -mavx2", "", Flags{Ignored: []string{"-march=native", "-mtune=generic", "-msse4.2", "-mavx2"}}},
		{"-MD -MMD -MP -MF dep.d -MT x.o -MQ y.o -MFz.d -M -MM", "", Flags{
			Ignored: []string{"-MD", "-MMD", "-MP", "-MF", "dep.d", "-MT", "x.o", "-MQ", "y.o", "-MFz.d", "-M", "-MM"}}},
		{"-Wa,--noexecstack -Wl,-z,now -Wp,-DQ=3,-UR,-MD", "", Flags{
			Ignored: []string{"-Wa,--noexecstack", "-Wl,-z,now", "-Wp,-MD"}, Macros: []Macro{{Name: "Q", Value: "3"}, {Name: "R", Undef: true}}}},
		{"-lz -L /usr/lib -pipe -shared -Xlinker --as-needed --param max-inline=1", "", Flags{
			Ignored: []string{"-lz", "-L", "/usr/lib", "-pipe", "-shared", "-Xlinker", "--as-needed", "--param", "max-inline=1"}}},
		{"a.c - b.i", "", Flags{Files: []string{"a.c", "-", "b.i"}}},
	}
	for _, tc := range tests {
		got, err := Parse(strings.Fields(tc.args), tc.dir)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.args, err)
			continue
		}
		if !reflect.DeepEqual(*got, tc.want) {
			t.Errorf("Parse(%q) =\n  %+v\nwant\n  %+v", tc.args, *got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{"--frobnicate", "--frobnicate: unknown flag"},
		{"-Q", "-Q: unknown flag"},
		{"-I", "-I: missing argument"},
		{"-o", "-o: missing argument"},
		{"-MF", "-MF: missing argument"},
		{"-D", "-D: missing argument"},
		{"-std=", "-std=: needs a standard"},
		{"-fwrapv", "-fwrapv: signed overflow wraps"},
		{"-fno-strict-overflow", "-fno-strict-overflow: signed overflow wraps"},
		{"-funsigned-char", "-funsigned-char: chorus uses the ABI's signed char"},
		{"-fshort-enums", "-fshort-enums: chorus uses"},
		{"-fopenmp", "-fopenmp: OpenMP"},
		{"-mx32", "-mx32: the x32 ABI"},
		{"-I-", "-I-: -I- is not supported"},
		{"-nostdinc", "-nostdinc: not supported"},
	} {
		_, err := Parse(strings.Fields(tc.args), "")
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%q) error = %v, want prefix %q", tc.args, err, tc.want)
		}
	}
}

func TestMatch(t *testing.T) {
	for _, tc := range []struct {
		arg string
		n   int
		ok  bool
	}{
		{"-I", 2, true}, {"-Iinc", 1, true}, {"-D", 2, true}, {"-DX", 1, true},
		{"-o", 2, true}, {"-O2", 1, true}, {"-std=c99", 1, true}, {"-MF", 2, true},
		{"-MD", 1, true}, {"-include", 2, true}, {"-isystem", 2, true}, {"-Xlinker", 2, true},
		{"-Wall", 1, true}, {"-m32", 1, true}, {"-pthread", 1, true}, {"-x", 2, true},
		{"--domain", 0, false}, {"-Q", 0, false}, {"file.c", 0, false},
	} {
		n, ok := Match(tc.arg)
		if n != tc.n || ok != tc.ok {
			t.Errorf("Match(%q) = %d, %v; want %d, %v", tc.arg, n, ok, tc.n, tc.ok)
		}
	}
}

func TestArgsRoundTrip(t *testing.T) {
	in := "-DA -DB=x y -UA -iquote /q -I/i -isystem /s -idirafter /z -include /f.h -std=c11 -m32 -pthread -x c -O2 -c"
	f, err := Parse(strings.Fields(in), "")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Parse(f.Args(), "")
	if err != nil {
		t.Fatal(err)
	}
	f.Ignored, f.Files = nil, nil
	if !reflect.DeepEqual(f, g) {
		t.Errorf("round trip:\n  %+v\n  %+v", f, g)
	}
}

func TestIsC(t *testing.T) {
	f := &Flags{}
	for file, want := range map[string]bool{"a.c": true, "a.i": true, "a.h": true, "a.S": false, "a.s": false, "a.cpp": false, "a.C": false, "a.cc": false} {
		if got := f.IsC(file); got != want {
			t.Errorf("IsC(%q) = %v", file, got)
		}
	}
	if !(&Flags{Lang: "c"}).IsC("x.inc") || (&Flags{Lang: "c++"}).IsC("x.c") {
		t.Error("-x is not obeyed")
	}
}
