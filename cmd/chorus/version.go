package main

// chorus --version: the version from the module's build information
// (debug.ReadBuildInfo): the module version when built by `go install
// module@version`, else the VCS revision when the build recorded one,
// else "(devel)". The version goes into the JSON and SARIF outputs and
// into the result cache's key (with a digest of the executable, so that a
// rebuilt development binary never reads results of another build).

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
)

// chorusVersion is the version of this binary.
func chorusVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := bi.Main.Version
	if v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		return "(devel) " + rev + dirty
	}
	return "(devel)"
}

func writeVersion(w io.Writer) {
	bi, _ := debug.ReadBuildInfo()
	goVersion := ""
	if bi != nil {
		goVersion = bi.GoVersion
	}
	fmt.Fprintf(w, "chorus %s (%s)\n", chorusVersion(), goVersion)
}

var (
	exeDigestOnce sync.Once
	exeDigestVal  string
)

// exeDigest is a SHA-256 of the running executable ("" when it cannot be
// read): part of the cache key.
func exeDigest() string {
	exeDigestOnce.Do(func() {
		exe, err := os.Executable()
		if err != nil {
			return
		}
		f, err := os.Open(exe)
		if err != nil {
			return
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return
		}
		exeDigestVal = hex.EncodeToString(h.Sum(nil))
	})
	return exeDigestVal
}
