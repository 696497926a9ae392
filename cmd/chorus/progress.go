package main

// Progress of a bulk run on standard error: files done/total, the files
// being analysed, checks proven so far, elapsed time and an estimate of
// the rest (github.com/schollz/progressbar/v3). Only when standard error
// is a terminal and --quiet is not given: never in a pipe, a file or CI
// logs, never on standard output.

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"chorus/report"
)

type progress struct {
	mu      sync.Mutex
	bar     *progressbar.ProgressBar // nil: silent
	running map[string]bool
	proven  int
}

func newProgress(stderr io.Writer, total int, quiet bool) *progress {
	p := &progress{running: map[string]bool{}}
	f, ok := stderr.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) || total < 2 {
		return p
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(f),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionThrottle(200*time.Millisecond),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionFullWidth(),
		progressbar.OptionSetDescription("analysing"),
	)
	return p
}

func (p *progress) start(file string) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[file] = true
	p.describe()
}

func (p *progress) done(file string, f *report.File) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, file)
	for _, c := range f.Checks {
		if c.Status == report.Proven || c.Status == report.Unreachable {
			p.proven++
		}
	}
	p.describe()
	p.bar.Add(1)
}

// describe sets the bar's text: checks proven so far and the files being
// analysed (base names, the first few).
func (p *progress) describe() {
	names := make([]string, 0, len(p.running))
	for f := range p.running {
		names = append(names, filepath.Base(f))
	}
	sort.Strings(names)
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("+%d", len(names)-3))
	}
	p.bar.Describe(fmt.Sprintf("%d proven | %s", p.proven, strings.Join(names, " ")))
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar.Clear()
	}
}
