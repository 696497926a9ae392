package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchemaPath is the official SARIF 2.1.0 schema (OASIS) in
// ../shared/schemas.
var sarifSchemaPath = filepath.Join("..", "..", "..", "shared", "schemas", "sarif-schema-2.1.0.json")

var (
	sarifSchemaOnce sync.Once
	sarifSchema     *jsonschema.Schema
	sarifSchemaErr  error
)

// validateSARIF checks data against the official schema (formats
// asserted). Every SARIF log the tests produce goes through it; without
// the schema (no ../shared) the test is skipped.
func validateSARIF(t *testing.T, data []byte) map[string]any {
	t.Helper()
	if _, err := os.Stat(sarifSchemaPath); err != nil {
		t.Skip("SARIF schema not found at " + sarifSchemaPath)
	}
	sarifSchemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		sarifSchema, sarifSchemaErr = c.Compile(sarifSchemaPath)
	})
	if sarifSchemaErr != nil {
		t.Fatalf("compiling the SARIF schema: %v", sarifSchemaErr)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, data)
	}
	if err := sarifSchema.Validate(inst); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v\n%s", err, data)
	}
	var doc map[string]any
	json.Unmarshal(data, &doc)
	return doc
}

// sarifResults returns the results of the only run.
func sarifResults(t *testing.T, doc map[string]any) []map[string]any {
	t.Helper()
	runs, _ := doc["runs"].([]any)
	if len(runs) != 1 {
		t.Fatalf("want one run, got %d", len(runs))
	}
	run := runs[0].(map[string]any)
	var out []map[string]any
	for _, r := range run["results"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func sarifNotifications(doc map[string]any) []map[string]any {
	run := doc["runs"].([]any)[0].(map[string]any)
	var out []map[string]any
	for _, inv := range run["invocations"].([]any) {
		ns, _ := inv.(map[string]any)["toolExecutionNotifications"].([]any)
		for _, n := range ns {
			out = append(out, n.(map[string]any))
		}
	}
	return out
}

// writerProgram: main writes g twice while a thread asserts g <= 1.
const writerProgram = `typedef unsigned long pthread_t;
extern int pthread_create(pthread_t *, void *, void *(*)(void *), void *);
extern void __VERIFIER_assert(int);
int g = 0;
void *w(void *a) {
  __VERIFIER_assert(g <= 1);
  return 0;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, 0, w, 0);
  g = 5;
  g = 7;
  return 0;
}
`

// TestSARIFOutput: rules, a result with location, invariant, fingerprint,
// interfering writes as related locations, a file error as a
// notification; schema-valid.
func TestSARIFOutput(t *testing.T) {
	dir := t.TempDir()
	race := filepath.Join(dir, "race.c")
	bad := filepath.Join(dir, "bad.c")
	safe := filepath.Join(dir, "safe.c")
	os.WriteFile(race, []byte(writerProgram), 0o644)
	os.WriteFile(safe, []byte(safeProgram), 0o644)
	os.WriteFile(bad, []byte("int main(void) { return undeclared_thing; }\n"), 0o644)
	code, out, errs := runCmd("check", "--format", "sarif", "--checks", "assert", "-j", "2", "--no-cache", race, bad, safe)
	if code != 2 {
		t.Errorf("exit %d, want 2 (bad.c)", code)
	}
	if !strings.Contains(errs, "bad.c:1:") {
		t.Errorf("stderr lacks the file error: %q", errs)
	}
	doc := validateSARIF(t, []byte(out))
	run := doc["runs"].([]any)[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	var ids []string
	for _, r := range driver["rules"].([]any) {
		ids = append(ids, r.(map[string]any)["id"].(string))
	}
	for _, want := range []string{"chorus.assert", "chorus.array-bounds", "chorus.signed-overflow", "chorus.div-by-zero"} {
		if !strings.Contains(strings.Join(ids, " "), want) {
			t.Errorf("rules %v lack %s", ids, want)
		}
	}
	if driver["version"] == nil {
		t.Error("no tool version")
	}
	results := sarifResults(t, doc)
	if len(results) != 1 {
		t.Fatalf("want 1 result (race.c:6), got %d:\n%s", len(results), out)
	}
	r := results[0]
	if r["ruleId"] != "chorus.assert" || r["level"] != "warning" {
		t.Errorf("result: %v", r)
	}
	loc := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
	if line := loc["region"].(map[string]any)["startLine"]; line != float64(6) {
		t.Errorf("result line %v, want 6", line)
	}
	if !strings.HasSuffix(loc["artifactLocation"].(map[string]any)["uri"].(string), "race.c") {
		t.Errorf("location %v", loc)
	}
	props := r["properties"].(map[string]any)
	if inv, _ := props["invariant"].(string); !strings.Contains(inv, "g in [") {
		t.Errorf("invariant %q", inv)
	}
	fp := r["partialFingerprints"].(map[string]any)["chorus/v1"]
	if s, _ := fp.(string); len(s) != 32 {
		t.Errorf("fingerprint %v", fp)
	}
	rel, _ := r["relatedLocations"].([]any)
	if len(rel) != 2 {
		t.Errorf("want the 2 writes of main as related locations: %v", r)
	}
	for i, l := range rel {
		line := l.(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)["startLine"]
		if line != float64(12+i) {
			t.Errorf("related location %d at line %v, want %d", i, line, 12+i)
		}
	}
	msg := r["message"].(map[string]any)["text"].(string)
	if !strings.Contains(msg, "assertion g <= 1 not proven (g in [0, 7]); g written by other threads at line 12 (value 5), line 13 (value 7)") {
		t.Errorf("message %q", msg)
	}
	ns := sarifNotifications(doc)
	if len(ns) != 1 || ns[0]["level"] != "error" || !strings.Contains(ns[0]["message"].(map[string]any)["text"].(string), "undeclared_thing") {
		t.Errorf("notifications: %v", ns)
	}
}

// TestFingerprintSurvivesLineShift: inserting lines above a check keeps
// its fingerprint, so a baseline still matches.
func TestFingerprintSurvivesLineShift(t *testing.T) {
	dir := t.TempDir()
	race := filepath.Join(dir, "race.c")
	os.WriteFile(race, []byte(raceProgram), 0o644)
	fingerprint := func() (string, float64) {
		_, out, _ := runCmd("check", "--format", "sarif", "--checks", "assert", "--no-cache", race)
		rs := sarifResults(t, validateSARIF(t, []byte(out)))
		if len(rs) != 1 {
			t.Fatalf("want 1 result, got %d", len(rs))
		}
		line := rs[0]["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)["startLine"].(float64)
		return rs[0]["partialFingerprints"].(map[string]any)["chorus/v1"].(string), line
	}
	fp1, line1 := fingerprint()
	os.WriteFile(race, []byte("/* a new\n   comment */\n\n"+raceProgram), 0o644)
	fp2, line2 := fingerprint()
	if line2 != line1+3 {
		t.Fatalf("lines %v -> %v, want a shift by 3", line1, line2)
	}
	if fp1 != fp2 {
		t.Errorf("fingerprint changed with a line shift: %s -> %s", fp1, fp2)
	}
}

// TestSARIFViolatedCodeFlow: a violated check (--confirm) is an error
// with its schedule as a codeFlow, one threadFlow per thread, steps in
// global order; schema-valid.
func TestSARIFViolatedCodeFlow(t *testing.T) {
	f := writeC(t, "racy.c", racyCounter)
	code, out, errs := runCmd("check", "--no-cache", "--checks", "assert", "--confirm", "2", "--format", "sarif", f)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rs := sarifResults(t, validateSARIF(t, []byte(out)))
	if len(rs) != 1 || rs[0]["level"] != "error" {
		t.Fatalf("want one error result, got %v", rs)
	}
	cfs, _ := rs[0]["codeFlows"].([]any)
	if len(cfs) != 1 {
		t.Fatalf("codeFlows: %v", rs[0])
	}
	tfs := cfs[0].(map[string]any)["threadFlows"].([]any)
	if len(tfs) < 2 {
		t.Errorf("want a threadFlow per thread (main and the incrementers), got %d", len(tfs))
	}
	orders := map[float64]bool{}
	for _, tf := range tfs {
		last := 0.0
		for _, l := range tf.(map[string]any)["locations"].([]any) {
			o := l.(map[string]any)["executionOrder"].(float64)
			if o <= last || orders[o] {
				t.Errorf("executionOrder %v out of order or repeated", o)
			}
			last, orders[o] = o, true
		}
	}
	for i := 1; i <= len(orders); i++ {
		if !orders[float64(i)] {
			t.Errorf("step %d missing from the thread flows", i)
		}
	}
}
