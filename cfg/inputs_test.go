package cfg

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestInputDigest: the digest changes with the file, a header it
// includes, a line shift or the options, and only then.
func TestInputDigest(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "m.c")
	hdr := filepath.Join(dir, "h.h")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(hdr, "int h;\n")
	write(main, "#include \"h.h\"\nint main(void) { return h; }\n")
	digest := func(o Options) []byte {
		d, err := InputDigest(main, o)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d0 := digest(Options{})
	if !bytes.Equal(d0, digest(Options{})) {
		t.Fatal("digest not deterministic")
	}
	if bytes.Equal(d0, digest(Options{DataModel: ILP32})) {
		t.Error("data model not in the digest")
	}
	write(hdr, "int h; /* changed */\n")
	d1 := digest(Options{})
	if bytes.Equal(d0, d1) {
		t.Error("header change not in the digest")
	}
	write(main, "\n#include \"h.h\"\nint main(void) { return h; }\n")
	if bytes.Equal(d1, digest(Options{})) {
		t.Error("line shift not in the digest")
	}
	if _, err := InputDigest(filepath.Join(dir, "missing.c"), Options{}); err == nil {
		t.Error("missing file: no error")
	}
}
