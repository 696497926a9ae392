package main

// The result cache of chorus check: a file's report, stored under a key
// that hashes everything the result depends on: the executable (its
// version and a digest of the binary, so that a rebuilt chorus never
// reads another build's results), the analysis flags, the file's path,
// and cfg.InputDigest (the file and every header it includes, raw, and
// the frontend configuration). Entries are JSON files named by the key,
// written atomically (temporary file and rename); an entry that does not
// parse or whose recorded key differs is ignored, never trusted.
//
// Cached: finished analyses, input errors and files stopped by a limit
// (the same limits are in the key). Not cached: crashed workers.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"chorus/cfg"
	"chorus/report"
)

type resultCache struct{ dir string }

type cacheEntry struct {
	Key    string      `json:"key"`
	Report report.File `json:"report"`
}

// key is the cache key of file under o ("" when the file's inputs cannot
// be read: then it is not cached).
func (c *resultCache) key(o *checkOptions, u unit) string {
	file := u.file
	opts, err := frontendOptions(o, u)
	if err != nil {
		return ""
	}
	digest, err := cfg.InputDigest(file, opts)
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, s := range []string{"chorus result cache v1", chorusVersion(), exeDigest(), strings.Join(o.bulk.childArgs, "\x00"), file, hex.EncodeToString(digest)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *resultCache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// get returns the cached report of key, if a valid entry for file exists.
func (c *resultCache) get(key, file string) (report.File, bool) {
	if key == "" {
		return report.File{}, false
	}
	data, err := os.ReadFile(c.path(key))
	if err != nil {
		return report.File{}, false
	}
	var e cacheEntry
	if err := json.Unmarshal(data, &e); err != nil || e.Key != key || e.Report.File != file || e.Report.Verdict == "" {
		return report.File{}, false
	}
	f := e.Report
	f.Cached = true
	f.CPUMS = 0
	if f.Checks == nil {
		f.Checks = []report.Check{}
	}
	return f, true
}

// put stores a report; failures to write are ignored (the cache is an
// optimisation).
func (c *resultCache) put(key string, f report.File) {
	if key == "" {
		return
	}
	f.Cached = false
	f.UnusedIgnores = nil
	data, err := json.Marshal(cacheEntry{Key: key, Report: f})
	if err != nil {
		return
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	if err := os.Rename(tmp.Name(), p); err != nil {
		os.Remove(tmp.Name())
	}
}
