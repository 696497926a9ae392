package cfg

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// corpusDir is the shared benchmark corpus, relative to the package
// directory (the repository's parent holds shared/).
const corpusDir = "../../shared/corpus"

// corpusFiles lists the corpus inputs with their data models: SV-COMP
// files take the model of their task file (found through MANIFEST.tsv;
// ILP32 when none), ddverify files are ILP32.
func corpusFiles(t testing.TB) map[string]DataModel {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus not present:", err)
	}
	files := map[string]DataModel{}
	manifest := map[string]DataModel{}
	if f, err := os.Open(filepath.Join(corpusDir, "svcomp", "MANIFEST.tsv")); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			cols := strings.Split(sc.Text(), "\t")
			if len(cols) < 6 || cols[0] == "dir" {
				continue
			}
			// The task file decides; the manifest's column must agree.
			yml := filepath.Join(corpusDir, "svcomp", cols[0], cols[1])
			m, err := DataModelFromYML(yml)
			if err != nil {
				continue // task file not in the corpus
			}
			if want, err := ParseDataModel(cols[5]); err == nil && want != m {
				t.Errorf("%s: data model %v, manifest says %v", yml, m, want)
			}
			manifest[filepath.Join(cols[0], cols[2])] = m
		}
		f.Close()
	}
	for _, sub := range []string{"svcomp", "ddverify"} {
		root := filepath.Join(corpusDir, sub)
		filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
			if err != nil || info.IsDir() {
				return nil
			}
			ext := filepath.Ext(path)
			if ext != ".c" && ext != ".i" {
				return nil
			}
			m := ILP32
			if sub == "svcomp" {
				rel, _ := filepath.Rel(root, path)
				if mm, ok := manifest[rel]; ok {
					m = mm
				}
			}
			files[path] = m
			return nil
		})
	}
	return files
}

func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	start := time.Now()
	n, locs := 0, 0
	var paths []string
	for path := range files {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	// One file per CPU at a time (Build is safe for concurrent use): the
	// large drivers dominate, and each lowers alone in minutes.
	var mu sync.Mutex
	next := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range next {
				m := files[path]
				t0 := time.Now()
				p, err := BuildFile(path, Options{DataModel: m})
				if err == nil {
					err = Sanity(p)
				}
				mu.Lock()
				if d := time.Since(t0); d > 3*time.Second && testing.Verbose() {
					t.Logf("slow: %s %v", path, d)
				}
				if err != nil {
					t.Errorf("%s: %v", path, err)
				} else {
					n++
					locs += len(p.Locs)
				}
				mu.Unlock()
			}
		}()
	}
	for _, path := range paths {
		next <- path
	}
	close(next)
	wg.Wait()
	t.Logf("lowered %d/%d corpus files, %d locations, in %v", n, len(files), locs, time.Since(start))
}
