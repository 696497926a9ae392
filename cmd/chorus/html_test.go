package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// htmlReport runs chorus check --html on files and returns the page.
func htmlReport(t *testing.T, files ...string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	args := append([]string{"check", "--quiet", "--html", dir}, files...)
	if code, _, errs := runCmd(args...); code == 2 {
		t.Fatalf("exit 2: %s", errs)
	}
	page := filepath.Join(dir, "index.html")
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	return page, string(data)
}

func appendixAVariants() []string {
	var out []string
	for _, f := range []string{"appendix_a.c", "appendix_a_nolock.c", "appendix_a_nowait.c"} {
		out = append(out, filepath.Join(fixtureDir, f))
	}
	return out
}

func TestHTMLReport(t *testing.T) {
	_, page := htmlReport(t, appendixAVariants()...)
	for _, want := range []string{
		`<table id="summary">`,
		`appendix_a_nolock.c</a>`,
		`data-status="unproven" data-kind="assert"`,
		`data-status="proven" data-kind="assert"`,
		`<details class="slice"`,
		"counter = counter - 1;` (consumer)",
		`<input type="checkbox" data-status="proven">`,
		`<input type="checkbox" data-kind="signed-overflow" checked>`,
		`title="plock in [1, 1] ∧ counter in [0, 0]`, // the invariant of a source line on hover (the reset)
		`c-unproven`, // a marked check line
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if _, err := exec.LookPath("dot"); err == nil && !strings.Contains(page, "<svg") {
		t.Error("graphviz is installed but the page has no SVG slice")
	}
	// Offline: nothing is loaded from anywhere.
	for _, bad := range []*regexp.Regexp{regexp.MustCompile(`\ssrc=`), regexp.MustCompile(`<link\b`), regexp.MustCompile(`url\(`), regexp.MustCompile(`@import`)} {
		if bad.MatchString(page) {
			t.Errorf("page loads a resource: %s", bad)
		}
	}
	if n := strings.Count(page, `<section class="file"`); n != 3 {
		t.Errorf("%d file sections, want 3", n)
	}
}

// The page in a real browser: headless Chromium loads it with no console
// message at all (no script error, no failed load), the filter script has
// run (proven rows hidden by default) and the slices are in the DOM. Run
// when Chromium is installed (Debian: apt-get install chromium); the
// DDVerify driver ds1286 too when the corpus is present.
func TestHTMLReportInChromium(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		t.Skip("no chromium installed")
	}
	inputs := map[string][]string{"appendix_a": appendixAVariants()}
	if ds := "../../../shared/corpus/ddverify/ds1286.c"; !testing.Short() {
		if _, err := os.Stat(ds); err == nil {
			inputs["ds1286"] = []string{ds}
		}
	}
	for name, files := range inputs {
		t.Run(name, func(t *testing.T) {
			page, _ := htmlReport(t, files...)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
				"--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+page)
			var dom, logs bytes.Buffer
			cmd.Stdout, cmd.Stderr = &dom, &logs
			if err := cmd.Run(); err != nil {
				t.Fatalf("%s: %v\n%s", browser, err, logs.String())
			}
			for _, l := range strings.Split(logs.String(), "\n") {
				if strings.Contains(l, ":CONSOLE") {
					t.Errorf("console: %s", l)
				}
			}
			d := dom.String()
			if !strings.Contains(d, `<details class="slice"`) || !strings.Contains(d, `<pre class="notes">`) {
				t.Errorf("no slice in the DOM (%d bytes)", len(d))
			}
			if _, err := exec.LookPath("dot"); err == nil && !strings.Contains(d, "<svg") {
				t.Error("no SVG slice in the DOM")
			}
			if !regexp.MustCompile(`<tr class="check" [^>]*data-status="proven"[^>]*hidden=""`).MatchString(d) {
				t.Error("proven rows are not hidden: the filter script did not run")
			}
			if regexp.MustCompile(`<tr class="check" [^>]*data-status="unproven"[^>]*hidden=""`).MatchString(d) {
				t.Error("an unproven row is hidden")
			}
		})
	}
}

// Issue 10: a compile database that compiles one file twice with
// different flags (memcached.c) gives two units; --html keys each page's
// source, invariants and slices by unit, not by file name (one used to
// overwrite the other), and names the compile command.
func TestHTMLReportFileCompiledTwice(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "x.c")
	os.WriteFile(src, []byte("int buf[4];\nint main(void) {\n  int i = IDX;\n  buf[i] = 1;\n  return 0;\n}\n"), 0o644)
	db := `[{"directory": "` + dir + `", "file": "x.c", "arguments": ["cc", "-DIDX=2", "-c", "x.c", "-o", "low.o"], "output": "low.o"},
 {"directory": "` + dir + `", "file": "x.c", "arguments": ["cc", "-DIDX=7", "-c", "x.c", "-o", "high.o"], "output": "high.o"}]`
	os.WriteFile(filepath.Join(dir, "compile_commands.json"), []byte(db), 0o644)
	out := filepath.Join(dir, "html")
	if code, stdout, errs := runCmd("check", "--quiet", "--no-cache", "--html", out, "-p", dir); code != 1 {
		t.Fatalf("exit %d, want 1 (high.o's check unproven)\n%s%s", code, stdout, errs)
	}
	data, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{"x.c (low.o)", "x.c (high.o)", "i in [2, 2]", "i in [7, 7]", `<details class="slice"`} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}
