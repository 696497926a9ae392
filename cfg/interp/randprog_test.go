package interp

// Random differential programs: straight-line C over variables of every
// integer type, with conversions, promotions, compound assignments,
// shifts, divisions, conditionals and small loops, printed after every
// statement. They are generated free of undefined behaviour by
// construction (arithmetic that could overflow is done in unsigned types,
// divisors are made non-zero, shift counts are masked below the width,
// signed values are never shifted left or negated), compiled with gcc and
// interpreted; the outputs must agree. The seeds are fixed, so a failure
// is reproducible: the message names the seed and the statement.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"chorus/cfg"
)

// stmtRe finds the statement number of the first differing gcc line.
var stmtRe = regexp.MustCompile(`gcc: +(\d+):`)

type rvar struct {
	name, ctype string
	unsigned    bool
}

var rtypes = []struct {
	ctype    string
	unsigned bool
}{
	{"signed char", false}, {"unsigned char", true}, {"short", false}, {"unsigned short", true},
	{"int", false}, {"unsigned", true}, {"long", false}, {"unsigned long", true},
}

type rgen struct {
	r      *rand.Rand
	vars   []rvar
	labels int
}

// rhelpers are called from the generated expressions (pure, no undefined
// behaviour): calls with several returns, a switch, conversions of the
// arguments to the parameter types.
const rhelpers = `static long h1(long a, unsigned b) {
  if (a & 1)
    return (long)(b >> 3);
  return a ^ (long)b;
}
static unsigned h2(unsigned char c, short s) {
  switch (c & 3) {
  case 0:
    return (unsigned)s;
  case 1:
    return c * 2u;
  default:
    break;
  }
  return 7u;
}
`

// control wraps simple statements in control flow: a switch with a
// fall-through, a loop with continue and break, a goto loop, a do/while.
func (g *rgen) control(depth int) string {
	st := func() string { return g.stmt(depth) }
	g.labels++
	switch g.r.IntN(4) {
	case 0:
		return fmt.Sprintf("switch ((%s) & 3) { case 0: %s break; case 1: %s case 2: %s break; default: %s }",
			g.expr(depth-1), st(), st(), st(), st())
	case 1:
		return fmt.Sprintf("for (int k%d = 0; k%d < 4; k%d++) { if ((%s) & 1) continue; %s if ((%s) & 4) break; %s }",
			g.labels, g.labels, g.labels, g.expr(depth-1), st(), g.expr(depth-1), st())
	case 2:
		return fmt.Sprintf("{ int n%d = 3; again%d: %s if (--n%d > 0) goto again%d; }", g.labels, g.labels, st(), g.labels, g.labels)
	default:
		return fmt.Sprintf("{ int n%d = 2; do { %s } while (--n%d > 0); }", g.labels, st(), g.labels)
	}
}

func (g *rgen) leaf() string {
	if g.r.IntN(3) == 0 {
		switch g.r.IntN(5) {
		case 0:
			return fmt.Sprint(g.r.IntN(256))
		case 1:
			return fmt.Sprintf("%du", g.r.Uint32())
		case 2:
			return fmt.Sprintf("%dL", g.r.Int64N(1<<40)-1<<39)
		case 3:
			return fmt.Sprintf("%dUL", g.r.Uint64()>>1)
		default:
			return fmt.Sprint(g.r.IntN(2000) - 1000)
		}
	}
	return g.vars[g.r.IntN(len(g.vars))].name
}

var utypes = []string{"unsigned char", "unsigned short", "unsigned", "unsigned long"}
var alltypes = []string{"signed char", "unsigned char", "short", "unsigned short", "int", "unsigned", "long", "unsigned long"}

// expr is an expression without undefined behaviour whatever the values of
// the variables.
func (g *rgen) expr(depth int) string {
	if depth <= 0 || g.r.IntN(4) == 0 {
		return g.leaf()
	}
	a, b := g.expr(depth-1), g.expr(depth-1)
	u := utypes[2+g.r.IntN(2)] // unsigned or unsigned long: arithmetic wraps
	switch g.r.IntN(15) {
	case 0:
		return fmt.Sprintf("((%s)(%s) + (%s)(%s))", u, a, u, b)
	case 1:
		return fmt.Sprintf("((%s)(%s) - (%s)(%s))", u, a, u, b)
	case 2:
		return fmt.Sprintf("((%s)(%s) * (%s)(%s))", u, a, u, b)
	case 3:
		return fmt.Sprintf("((%s)(%s) / ((%s)(%s) | 1u))", u, a, u, b)
	case 4:
		return fmt.Sprintf("((%s)(%s) %% ((%s)(%s) | 1u))", u, a, u, b)
	case 5:
		return fmt.Sprintf("((long)((%s) & 0xFFFF) / (((%s) & 7) + 1))", a, b) // signed division, divisor 1..8
	case 6:
		return fmt.Sprintf("((long)((%s) & 0xFFF) %% (((%s) & 7) - 9))", a, b) // divisor -9..-2
	case 7:
		ops := []string{"&", "|", "^"}
		return fmt.Sprintf("((%s) %s (%s))", a, ops[g.r.IntN(3)], b)
	case 8:
		if u == "unsigned" {
			return fmt.Sprintf("((%s)(%s) << ((%s) & 31))", u, a, b)
		}
		return fmt.Sprintf("((%s)(%s) << ((%s) & 63))", u, a, b)
	case 9:
		return fmt.Sprintf("((%s) >> ((%s) & 7))", a, b) // may shift a negative value right: gcc is arithmetic
	case 10:
		ops := []string{"<", "<=", ">", ">=", "==", "!=", "&&", "||"}
		return fmt.Sprintf("((%s) %s (%s))", a, ops[g.r.IntN(len(ops))], b)
	case 11:
		return fmt.Sprintf("((%s) ? (%s) : (%s))", g.expr(depth-1), a, b)
	case 12:
		ops := []string{"~", "!", "-(" + u + ")"}
		return fmt.Sprintf("(%s(%s))", ops[g.r.IntN(3)], a)
	case 13:
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("h1((long)(%s), (unsigned)(%s))", a, b)
		}
		return fmt.Sprintf("h2((unsigned char)(%s), (short)(%s))", a, b)
	default:
		return fmt.Sprintf("((%s)(%s))", alltypes[g.r.IntN(len(alltypes))], a)
	}
}

// stmt is one statement and a printf of what it changed.
func (g *rgen) stmt(depth int) string {
	v := g.vars[g.r.IntN(len(g.vars))]
	print := fmt.Sprintf("printf(\"%s=%%ld\\n\", (long)%s);", v.name, v.name)
	if v.ctype == "unsigned long" {
		print = fmt.Sprintf("printf(\"%s=%%lu\\n\", %s);", v.name, v.name)
	}
	var s string
	switch k := g.r.IntN(10); {
	case k < 4:
		s = fmt.Sprintf("%s = %s;", v.name, g.expr(depth))
	case k < 6 && v.unsigned:
		ops := []string{"+=", "-=", "*=", "&=", "|=", "^=", ">>="}
		op := ops[g.r.IntN(len(ops))]
		// The right side is converted to unsigned long so that the
		// operation is unsigned even when v is promoted to int.
		rhs := "(unsigned long)(" + g.expr(depth) + ")"
		if op == ">>=" {
			rhs = "(" + rhs + ") & 7"
		}
		s = fmt.Sprintf("%s %s %s;", v.name, op, rhs)
	case k < 6:
		ops := []string{"&=", "|=", "^="}
		s = fmt.Sprintf("%s %s %s;", v.name, ops[g.r.IntN(3)], g.expr(depth))
	case k == 6 && v.unsigned:
		s = fmt.Sprintf("(%s)++; --(%s); ++(%s);", v.name, v.name, v.name)
	case k == 7:
		s = fmt.Sprintf("if (%s) %s = %s; else %s = %s;", g.expr(depth-1), v.name, g.expr(depth-1), v.name, g.expr(depth-1))
	case k == 8 && v.unsigned:
		s = fmt.Sprintf("for (int k = 0; k < 3; k++) %s = %s * 3u + (unsigned)k;", v.name, v.name)
	default:
		w := g.vars[g.r.IntN(len(g.vars))]
		s = fmt.Sprintf("%s = %s;", v.name, w.name) // a plain conversion
	}
	return s + " " + print
}

// randomProgram returns the C source and its top-level statements; every
// line statement i prints starts with "i:".
func randomProgram(seed uint64, nstmt int) (string, []string) {
	g := &rgen{r: rand.New(rand.NewPCG(seed, 0x5eed))}
	var b strings.Builder
	b.WriteString("int printf(const char *, ...);\n" + rhelpers + "int main(void) {\n")
	for i, t := range rtypes {
		for j := 0; j < 2; j++ {
			name := fmt.Sprintf("v%d%c", i, 'a'+j)
			g.vars = append(g.vars, rvar{name, t.ctype, t.unsigned})
			fmt.Fprintf(&b, "  %s %s = (%s)%d;\n", t.ctype, name, t.ctype, g.r.IntN(1<<16)-1<<15)
		}
	}
	// Memory lvalues: array elements (constant and computed indexes), struct
	// fields, a union member, and variables reached through pointers.
	b.WriteString("  int arr[4] = {1, -2, 3, -4};\n  unsigned char bytes[8] = {0};\n")
	b.WriteString("  struct { short s; unsigned u; long l; } st = {-5, 6u, -7L};\n")
	b.WriteString("  union { unsigned w; unsigned char c[4]; } un = {0x12345678u};\n")
	b.WriteString("  long *lp = &v6a;\n  unsigned short *sp = &v3b;\n")
	g.vars = append(g.vars,
		rvar{"arr[1]", "int", false}, rvar{"arr[(v0a) & 3]", "int", false},
		rvar{"bytes[(v5b) & 7]", "unsigned char", true}, rvar{"bytes[2]", "unsigned char", true},
		rvar{"st.s", "short", false}, rvar{"st.u", "unsigned", true}, rvar{"st.l", "long", false},
		rvar{"un.w", "unsigned", true}, rvar{"un.c[1]", "unsigned char", true},
		rvar{"*lp", "long", false}, rvar{"*sp", "unsigned short", true})
	var stmts []string
	for i := 0; i < nstmt; i++ {
		s := g.stmt(3)
		if g.r.IntN(4) == 0 {
			s = g.control(3)
		}
		// Every line printed by statement i starts with "i:".
		s = strings.ReplaceAll(s, `printf("`, fmt.Sprintf(`printf("%d:`, i))
		stmts = append(stmts, s)
		b.WriteString("  " + s + "\n")
	}
	b.WriteString("  return 0;\n}\n")
	return b.String(), stmts
}

func TestRandomProgramsAgainstGCC(t *testing.T) {
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found")
	}
	tmp := t.TempDir()
	programs, stmts := uint64(8), 60
	if n, err := strconv.Atoi(os.Getenv("INTERP_RAND_PROGRAMS")); err == nil && n > 0 {
		programs = uint64(n) // a longer hunt, by hand
	}
	for seed := uint64(1); seed <= programs; seed++ {
		src, lines := randomProgram(seed, stmts)
		file := filepath.Join(tmp, fmt.Sprintf("rand%d.c", seed))
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		exe := strings.TrimSuffix(file, ".c")
		args := []string{"-O0", "-w", "-o", exe, file}
		if os.Getenv("INTERP_RAND_SANITIZE") != "" {
			// Check the generator's claim of no undefined behaviour.
			args = append(args, "-fsanitize=undefined,address", "-fno-sanitize-recover=all")
		}
		if out, err := exec.Command(gcc, args...).CombinedOutput(); err != nil {
			t.Fatalf("seed %d: gcc: %v\n%s", seed, err, out)
		}
		var want bytes.Buffer
		cmd := exec.Command(exe)
		cmd.Stdout = &want
		if err := cmd.Run(); err != nil {
			t.Fatalf("seed %d: running the gcc build: %v", seed, err)
		}
		if problem := interpretAndCompare(t, file, cfg.LP64, want.String(), 0); problem != "" {
			stmt := ""
			if m := stmtRe.FindStringSubmatch(problem); m != nil {
				if n, _ := strconv.Atoi(m[1]); n >= 0 && n < len(lines) {
					stmt = "\nstatement: " + lines[n]
				}
			}
			t.Errorf("seed %d: %s%s\nprogram:\n%s", seed, problem, stmt, src)
		}
	}
}
