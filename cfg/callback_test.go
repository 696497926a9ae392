package cfg

import (
	"strings"
	"testing"
)

// A function pointer handed to an unknown external function becomes an
// Unbounded thread template spawned at the call (and only at the calls
// that can reach it), and check's note says so once per external.
func TestUnknownExternalCallback(t *testing.T) {
	src := `
extern void pool_submit(void (*f)(void *), void *arg);
extern void log_msg(const char *s);
extern void sort(int *base, int n, int (*cmp)(const int *, const int *));
int buf[4];
int idx = 0;
void task(void *arg) { buf[idx] = 1; }
int cmp(const int *x, const int *y) { return buf[*x] - *y; }
void never(void *arg) { buf[idx] = 2; }
void (*fp)(void *) = never;
int main(void) {
  int a[3];
  pool_submit(task, 0);
  log_msg("x");
  log_msg("y");
  sort(a, 3, cmp);
  idx = 7;
  return 0;
}
`
	p, err := Build("cb.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tmpl := map[string]*Template{}
	for _, tm := range p.Templates {
		tmpl[tm.Name] = tm
	}
	for _, name := range []string{"task", "cmp"} {
		tm := tmpl[name]
		if tm == nil || !tm.Unbounded || !tm.Spawned {
			t.Errorf("%s: want an Unbounded spawned template, got %+v", name, tm)
		}
	}
	if tmpl["never"] != nil {
		t.Errorf("never reaches no external, yet has a template")
	}
	// Each callback is spawned at the call that can reach it, and only there.
	spawns := map[string][]int{}
	for _, l := range p.Templates[0].Locs {
		if sp, ok := l.Act.(*Spawn); ok {
			for _, t := range sp.Targets {
				spawns[t.Name] = append(spawns[t.Name], l.Pos.Line)
			}
		}
	}
	if len(spawns["task"]) != 1 || spawns["task"][0] != 13 || len(spawns["cmp"]) != 1 || spawns["cmp"][0] != 16 {
		t.Errorf("spawns: %v", spawns)
	}
	var notes []string
	for _, a := range p.Assumptions {
		if a.Note {
			notes = append(notes, a.Msg)
		}
	}
	want := []string{"pool_submit: ", "may call task from any number of threads", "log_msg: ", "sort: ", "may call cmp "}
	all := strings.Join(notes, "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("notes lack %q:\n%s", w, all)
		}
	}
	if len(notes) != 3 {
		t.Errorf("want one note per external, got %d:\n%s", len(notes), all)
	}
	// cmp's pointer parameters may point into a (reachable from sort's
	// arguments): a escapes to the callback threads.
	for _, o := range p.Objects {
		if strings.HasPrefix(o.Name, "main.a") && o.Cells[0].Scope != Global {
			t.Errorf("%s handed to sort stays thread-local", o.Name)
		}
	}
}

// A callback whose address reaches an external only through an
// address-taken global is a callback too; one that another callback
// hands over is found in a later round.
func TestCallbackThroughGlobalAndRounds(t *testing.T) {
	src := `
extern void run_all(void);
extern void defer(void (*f)(void));
struct ops { void (*fn)(void); } table;
int g;
void second(void) { g = 2; }
void first(void) { defer(second); }
int main(void) {
  struct ops *p = &table;
  p->fn = first;
  run_all();
  return g;
}
`
	p, err := Build("cb2.c", []byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, tm := range p.Templates {
		if tm.Spawned {
			names[tm.Name] = true
		}
	}
	if !names["first"] || !names["second"] {
		t.Errorf("spawned templates %v, want first and second", names)
	}
}
