package cfg

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"go/token"
	"hash"
	"io"
	"io/fs"
	"os"
	"sort"
	"sync"

	"modernc.org/cc/v4"
)

// InputDigest is a SHA-256 digest of everything Build would read for the
// translation unit filename under opts: the configuration (predefined
// macros, include paths, data model) and the raw bytes of the file and of
// every header the preprocessor opens, found by running the preprocessor
// with the same configuration as Build.
//
// Raw bytes, not the preprocessed tokens: comments and line structure are
// part of what a result depends on (positions in messages, ignore
// comments), so a change that only moves lines changes the digest too.
// chorus check keys its result cache by it.
func InputDigest(filename string, opts Options) (digest []byte, err error) {
	src, err := os.ReadFile(filename)
	if err != nil {
		return nil, &Error{Pos: token.Position{Filename: filename}, Msg: err.Error()}
	}
	conf, err := frontendConfig(opts)
	if err != nil {
		return nil, &Error{Pos: token.Position{Filename: filename}, Msg: err.Error()}
	}
	rec := &recordingFS{inner: conf.FS, read: map[string][]byte{}}
	conf.FS = rec
	defer func() {
		if r := recover(); r != nil {
			digest, err = nil, &Error{Pos: token.Position{Filename: filename}, Msg: fmt.Sprintf("internal error in the preprocessor: %v", r)}
		}
	}()
	sources := unitSources(conf, opts, filename, src)
	// A preprocessing error (a missing header) still yields a digest: Build
	// would fail the same way on the same inputs.
	_ = cc.Preprocess(&conf, sources, io.Discard)

	h := sha256.New()
	field := func(h hash.Hash, s string) {
		binary.Write(h, binary.LittleEndian, uint64(len(s)))
		io.WriteString(h, s)
	}
	field(h, "chorus input digest v1")
	field(h, fmt.Sprintf("%#v", opts)) // every option, including ones added later
	field(h, conf.Predefined)
	for _, p := range conf.IncludePaths {
		field(h, "I"+p)
	}
	for _, p := range conf.SysIncludePaths {
		field(h, "S"+p)
	}
	field(h, filename)
	field(h, string(src))
	rec.mu.Lock()
	names := make([]string, 0, len(rec.read))
	for n := range rec.read {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		field(h, n)
		field(h, string(rec.read[n]))
	}
	rec.mu.Unlock()
	return h.Sum(nil), nil
}

// recordingFS remembers the contents of every file opened through it.
type recordingFS struct {
	inner fs.FS
	mu    sync.Mutex
	read  map[string][]byte
}

func (r *recordingFS) Open(name string) (fs.File, error) {
	f, err := r.inner.Open(name)
	if err != nil {
		r.mu.Lock()
		r.read[name] = nil // a header that is missing now matters too
		r.mu.Unlock()
		return nil, err
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.read[name] = data
	r.mu.Unlock()
	return r.inner.Open(name)
}
