package main

// The compiler side of the command line of chorus check and chorus cfg:
// gcc-compatible flags mixed with chorus's own (internal/ccflags), the
// compile database of -p (internal/compdb), the translation units they
// make, and the disk cache of the host compiler's configuration.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"chorus/cfg"
	"chorus/internal/ccflags"
	"chorus/internal/compdb"
)

// unit is one translation unit to analyse: a file with its compiler
// flags.
type unit struct {
	file string         // as given, or the database's absolute path
	cc   *ccflags.Flags // meaningful compiler flags (never nil)
	// entry names the compile command when the database compiles the file
	// more than once ("" otherwise): its output file, else "#index".
	entry string
	// members are the units of a linked program (--link; library.go).
	members []unit
}

// splitArgs separates chorus's own flags (those fs defines, and -h), the
// gcc-compatible flags, and the files. "--" ends the flags. An argument
// that is neither is an error.
func splitArgs(fs *flag.FlagSet, args []string) (own, cc, files []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			files = append(files, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			files = append(files, a)
			continue
		}
		name := strings.TrimLeft(a, "-")
		name, _, hasValue := strings.Cut(name, "=")
		if name == "h" || name == "help" {
			own = append(own, a)
			continue
		}
		if fl := fs.Lookup(name); fl != nil {
			own = append(own, a)
			if bf, ok := fl.Value.(interface{ IsBoolFlag() bool }); !hasValue && !(ok && bf.IsBoolFlag()) {
				if i+1 >= len(args) {
					return nil, nil, nil, fmt.Errorf("flag needs an argument: %s", a)
				}
				i++
				own = append(own, args[i])
			}
			continue
		}
		if n, ok := ccflags.Match(a); ok {
			if i+n > len(args) {
				return nil, nil, nil, fmt.Errorf("%s: missing argument", a)
			}
			cc = append(cc, args[i:i+n]...)
			i += n - 1
			continue
		}
		return nil, nil, nil, fmt.Errorf("unknown flag %s (chorus's flags: -h; compiler flags: as gcc's)", a)
	}
	return own, cc, files, nil
}

// compileDBUnits are the units of the compile database at path: every C
// entry, or with files the entries of those files. Non-C entries are
// skipped with a note on notes. extra are the command line's compiler
// flags, added after each entry's own.
func compileDBUnits(path string, files, extra []string, notes *[]string) ([]unit, error) {
	entries, err := compdb.Load(path)
	if err != nil {
		return nil, fmt.Errorf("-p %s: %v", path, err)
	}
	count := map[string]int{}
	for _, e := range entries {
		count[e.File]++
	}
	want := map[string]bool{}
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return nil, err
		}
		abs = filepath.Clean(abs)
		if count[abs] == 0 {
			return nil, fmt.Errorf("%s: not in the compile database %s", f, path)
		}
		want[abs] = true
	}
	var units []unit
	for _, e := range entries {
		if len(want) > 0 && !want[e.File] {
			continue
		}
		fl, err := ccflags.Parse(append(append([]string(nil), e.Args...), extra...), e.Directory)
		if err != nil {
			return nil, fmt.Errorf("%s (compile command %d of %s): %v", e.File, e.Index, path, err)
		}
		if !fl.IsC(e.File) {
			*notes = append(*notes, fmt.Sprintf("%s: note: skipped, not C (compile command %d)", e.File, e.Index))
			continue
		}
		fl.Files, fl.Ignored = nil, nil
		u := unit{file: e.File, cc: fl}
		if count[e.File] > 1 {
			u.entry = fmt.Sprintf("#%d", e.Index)
			if e.Output != "" {
				u.entry = filepath.Base(e.Output)
			}
		}
		units = append(units, u)
	}
	sort.SliceStable(units, func(i, j int) bool { return units[i].file < units[j].file })
	return units, nil
}

// applyCC copies the meaningful flags into lowering options.
func applyCC(opts *cfg.Options, fl *ccflags.Flags) {
	if fl == nil {
		return
	}
	opts.Macros = fl.Macros
	opts.QuoteDirs = fl.QuoteDirs
	opts.IncludeDirs = fl.IncludeDirs
	opts.SystemDirs = fl.SystemDirs
	opts.AfterDirs = fl.AfterDirs
	opts.ForcedIncludes = fl.ForcedIncludes
	opts.Std = fl.Std
	opts.Pthread = fl.Pthread
}

// The host compiler's configuration (predefined macros, system include
// paths) is learned once per process and probe; across processes (the
// worker of every file) it is kept in the user cache directory, keyed by
// the compiler's path, size and modification time and the probe's flags.
func init() {
	cfg.HostConfigSource = diskHostConfig
}

// hostCacheDir is the directory of the host configuration cache ("" to
// disable it).
var hostCacheDir = func() string {
	if d := os.Getenv("CHORUS_HOSTCC_CACHE"); d != "" {
		if d == "off" {
			return ""
		}
		return d
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "chorus", "hostcc")
}()

func diskHostConfig(p cfg.HostProbe) (cfg.HostConfig, error) {
	compiler := cfg.HostCompiler()
	st, err := os.Stat(compiler)
	if hostCacheDir == "" || compiler == "" || err != nil {
		return cfg.ProbeHost(p)
	}
	// The compiler is often a symbolic link (cc -> gcc-12): key on the
	// file it resolves to as well.
	real, _ := filepath.EvalSymlinks(compiler)
	rst, _ := os.Stat(real)
	h := sha256.New()
	fmt.Fprintf(h, "chorus host cc v1\x00%s\x00%d\x00%d\x00%s\x00", compiler, st.Size(), st.ModTime().UnixNano(), real)
	if rst != nil {
		fmt.Fprintf(h, "%d\x00%d\x00", rst.Size(), rst.ModTime().UnixNano())
	}
	fmt.Fprintf(h, "%s\x00%s", strings.Join(p.Flags(), "\x00"), os.Getenv("CPATH")+"\x00"+os.Getenv("C_INCLUDE_PATH"))
	key := hex.EncodeToString(h.Sum(nil))
	file := filepath.Join(hostCacheDir, key+".json")
	if data, err := os.ReadFile(file); err == nil {
		var hc cfg.HostConfig
		if json.Unmarshal(data, &hc) == nil && hc.CC == compiler && len(hc.SysIncludePaths) > 0 {
			return hc, nil
		}
	}
	hc, err := cfg.ProbeHost(p)
	if err != nil {
		return hc, err
	}
	if data, err := json.Marshal(hc); err == nil && os.MkdirAll(hostCacheDir, 0o755) == nil {
		if tmp, err := os.CreateTemp(hostCacheDir, ".tmp-*"); err == nil {
			_, werr := tmp.Write(data)
			if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), file) != nil {
				os.Remove(tmp.Name())
			}
		}
	}
	return hc, nil
}

// parseCommandLine parses chorus's flags into fs, the compiler flags into
// o.cc, and makes o.units: the files, or the entries of the -p database.
func parseCommandLine(fs *flag.FlagSet, args []string, o *checkOptions) error {
	own, ccArgs, files, err := splitArgs(fs, args)
	if err != nil {
		return err
	}
	if err := fs.Parse(own); err != nil {
		return err
	}
	files = append(files, fs.Args()...)
	o.cc, err = ccflags.Parse(ccArgs, "")
	if err != nil {
		return err
	}
	if o.cc.Lang != "" && !o.cc.IsC("x.c") {
		return fmt.Errorf("-x %s: chorus analyses C only", o.cc.Lang)
	}
	if o.dataModel != "" && o.cc.DataModel != "" {
		if dm, err := cfg.ParseDataModel(o.dataModel); err == nil && dm.String() != o.cc.DataModel {
			return fmt.Errorf("--data-model %s contradicts -m%s", o.dataModel, map[string]string{"ILP32": "32", "LP64": "64"}[o.cc.DataModel])
		}
	}
	o.files = files
	if o.compileDB != "" {
		o.units, err = compileDBUnits(o.compileDB, files, ccArgs, &o.notes)
		if err != nil {
			return err
		}
		if len(o.units) == 0 {
			return fmt.Errorf("-p %s: no C translation units", o.compileDB)
		}
		o.files = nil
		for _, u := range o.units {
			o.files = append(o.files, u.file)
		}
		return nil
	}
	if len(files) == 0 {
		return errors.New("no input files")
	}
	for _, f := range files {
		o.units = append(o.units, o.unitOf(f))
	}
	return nil
}
