package main

import (
	"bufio"

	"chorus/analysis"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Goblint regression suite (../shared/corpus/goblint): one ground
// truth per assertion line in MANIFEST.tsv. An assertion counts as proved
// when it has at least one check site and every site at its line is
// proven or unreachable (it may be lowered several times: inlined into
// several templates or call sites). A `false` assertion must never count
// as proved, in either domain; its having no check site at all is an
// error too (the assertion was lost). Rows of testdata/disputed_labels.tsv
// (labels shown wrong, until the manifest is fixed) are skipped.

var goblintDomains = []string{"interval", "octagon"}

type goblintAssertion struct {
	file, dir string
	line      int
	expect    string // true | false | unknown
}

func readGoblintManifest(t *testing.T, root string) []goblintAssertion {
	f, err := os.Open(filepath.Join(root, "goblint", "MANIFEST.tsv"))
	if err != nil {
		t.Skip("no goblint/MANIFEST.tsv: ", err)
	}
	defer f.Close()
	var out []goblintAssertion
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 {
			continue
		}
		line, err := strconv.Atoi(cols[1])
		if err != nil {
			t.Fatalf("MANIFEST.tsv: bad line number %q", cols[1])
		}
		dir := cols[0]
		if i := strings.IndexByte(dir, '_'); i > 0 {
			dir = dir[:i]
		}
		out = append(out, goblintAssertion{file: cols[0], dir: dir, line: line, expect: cols[2]})
	}
	return out
}

// TestGoblintAssertions checks every Goblint assertion in both domains:
// no `false` assertion proven or unreachable; it logs the `true` ones
// proved per directory.
func TestGoblintAssertions(t *testing.T) {
	root := corpusRoot(t)
	rows := readGoblintManifest(t, root)
	disputed := goblintDisputed(t)
	byFile := map[string][]goblintAssertion{}
	var files []string
	for _, r := range rows {
		if *corpusFilter != "" && !strings.Contains(r.file, *corpusFilter) {
			continue
		}
		if byFile[r.file] == nil {
			files = append(files, r.file)
		}
		byFile[r.file] = append(byFile[r.file], r)
	}
	for _, domain := range goblintDomains {
		type tally struct{ trueTotal, trueProved, falseTotal int }
		per := map[string]*tally{}
		total := &tally{}
		for _, file := range files {
			path := filepath.Join(root, "goblint", "programs", file)
			o := &checkOptions{domain: domain, dataModel: "LP64", timeout: *corpusTimeout, maxRounds: 200}
			o.kinds = append(o.kinds, checkKindNames["assert"])
			start := time.Now()
			out := checkFile(o, path)
			// proved[line]: every site proven or unreachable; sites[line]: how many.
			proved, sites := map[int]bool{}, map[int]int{}
			if out.err == nil {
				for _, c := range out.res.Checks {
					l := c.Check.Pos.Line
					if sites[l] == 0 {
						proved[l] = true
					}
					sites[l]++
					if c.Status == analysis.Unproven {
						proved[l] = false
					}
				}
			}
			var got []string
			for _, a := range byFile[file] {
				if d, ok := disputed[a.file][a.line]; ok && d.manifest == a.expect {
					// A label shown wrong (testdata/disputed_labels.tsv,
					// re-checked by TestDisputedLabels): neither asserted
					// nor counted.
					got = append(got, strconv.Itoa(a.line)+":disputed")
					continue
				}
				ty := per[a.dir]
				if ty == nil {
					ty = &tally{}
					per[a.dir] = ty
				}
				switch a.expect {
				case "true":
					ty.trueTotal++
					total.trueTotal++
					if proved[a.line] {
						ty.trueProved++
						total.trueProved++
						got = append(got, strconv.Itoa(a.line)+":proved")
					} else {
						got = append(got, strconv.Itoa(a.line)+":unproven")
					}
				case "false":
					ty.falseTotal++
					total.falseTotal++
					if out.err == nil && sites[a.line] == 0 {
						t.Errorf("%s %s:%d: expected-false assertion has no check site", domain, file, a.line)
					}
					if proved[a.line] {
						t.Errorf("WRONG PROOF (%s): %s:%d is false but reported proven or unreachable", domain, file, a.line)
					}
				}
			}
			if *corpusReport {
				detail := strings.Join(got, " ")
				if out.err != nil {
					detail = firstLine(out.err.Error())
				}
				t.Logf("%-8s %-50s %6.2fs %s", domain, file, time.Since(start).Seconds(), detail)
			}
		}
		dirs := make([]string, 0, len(per))
		for d := range per {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		for _, d := range dirs {
			ty := per[d]
			t.Logf("%-8s goblint %s: true proved %d/%d; false %d (none proved)", domain, d, ty.trueProved, ty.trueTotal, ty.falseTotal)
		}
		t.Logf("%-8s goblint total: true proved %d/%d", domain, total.trueProved, total.trueTotal)
	}
}
