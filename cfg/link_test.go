package cfg

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Linking: external names are one entity across units, statics are per
// unit, tentative definitions and extern declarations meet the definition,
// a thread function and a global may live in another unit.
func TestBuildFilesLinks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.c", `
typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern int table[];
extern void *run(void *);
static int n = 1;
int shared;
static int get(void) { return n; }
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, run, 0);
  table[get()] = shared;
  return 0;
}
`)
	b := write("b.c", `
int table[8];
int shared;
static int n = 2;
static int get(void) { return n; }
void *run(void *arg) { shared = get(); return arg; }
`)
	p, err := BuildFiles([]string{a, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.File != a+" + "+b {
		t.Errorf("program name %q", p.File)
	}
	names := map[string]bool{}
	for _, v := range p.Vars {
		names[v.Name] = true
	}
	for _, want := range []string{"n@a.c", "n@b.c", "shared"} {
		if !names[want] {
			t.Errorf("no variable %s", want)
		}
	}
	for _, v := range p.Vars {
		if v.Name == "shared#1" {
			t.Errorf("shared is two variables")
		}
	}
	var tmpl []string
	for _, tm := range p.Templates {
		tmpl = append(tmpl, tm.Name)
	}
	if strings.Join(tmpl, ",") != "main,run" {
		t.Errorf("templates %v", tmpl)
	}
	// table is one object, of its definition's size.
	for _, o := range p.Objects {
		if o.Name == "table" && o.Size != 32 {
			t.Errorf("table: size %d, want 32", o.Size)
		}
	}
	c := write("c.c", "int shared = 3;\n")
	d := write("d.c", "int shared = 4;\n")
	if _, err := BuildFiles([]string{a, b, c, d}, Options{}); err == nil || !strings.Contains(err.Error(), "multiple definitions of shared") {
		t.Errorf("two initialized definitions: %v", err)
	}
}
