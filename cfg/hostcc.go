package cfg

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"modernc.org/cc/v4"
)

// stdConfig is a cc configuration whose (unexported) keyword set is the
// one of -std=std, as gcc has it: an ISO mode (c89, c99, c11, ...; -ansi
// is c90) drops the GNU keywords asm and typeof (and, before C99,
// inline), so they are ordinary identifiers; a GNU mode (gnu99, ...) and
// the default keep them. Only cc.NewConfig sets the keywords, and it runs
// the host compiler, so it is asked only for an ISO mode; the caller
// overwrites every exported field. (Once per probe and process:
// baseConfig caches.)
func stdConfig(std, arch string) (*cc.Config, error) {
	if std == "" || strings.HasPrefix(std, "gnu") {
		return &cc.Config{}, nil
	}
	c, err := cc.NewConfig("linux", arch, "-std="+std)
	if err != nil {
		return nil, fmt.Errorf("-std=%s: %v", std, err)
	}
	return c, nil
}

// HostProbe names one configuration of the host C compiler: what decides
// its predefined macros and system include paths.
type HostProbe struct {
	DataModel DataModel
	Std       string // -std= ("" = the compiler's default)
	Pthread   bool   // -pthread (defines _REENTRANT)
}

// Flags are the compiler flags of the probe.
func (p HostProbe) Flags() []string {
	var f []string
	if p.DataModel == ILP32 {
		f = append(f, "-m32")
	}
	if p.Std != "" {
		f = append(f, "-std="+p.Std)
	}
	if p.Pthread {
		f = append(f, "-pthread")
	}
	return f
}

// HostConfig is what the host compiler says about a HostProbe: its
// predefined macros (gcc -dM -E) and its include search lists (gcc -v -E).
type HostConfig struct {
	CC              string   // the compiler's path
	Predefined      string   // #define lines
	IncludePaths    []string // #include "..." search list after the file's directory
	SysIncludePaths []string // #include <...> search list
}

// HostCompiler is the path of the host C compiler ProbeHost runs ($CC,
// else cc, else gcc), "" when there is none.
func HostCompiler() string {
	for _, c := range []string{os.Getenv("CC"), "cc", "gcc"} {
		if c == "" {
			continue
		}
		if p, err := exec.LookPath(c); err == nil {
			if abs, err := filepath.Abs(p); err == nil {
				p = abs
			}
			return p
		}
	}
	return ""
}

// ProbeHost runs the host compiler twice (-dM -E and -v -E on an empty
// input) with the probe's flags.
func ProbeHost(p HostProbe) (HostConfig, error) {
	cc := HostCompiler()
	if cc == "" {
		return HostConfig{}, fmt.Errorf("no host C compiler ($CC, cc or gcc) to learn the predefined macros and system headers from")
	}
	run := func(extra ...string) (string, error) {
		args := append(p.Flags(), extra...)
		cmd := exec.Command(cc, append(args, "-")...)
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		cmd.Stdin = strings.NewReader("")
		out, err := cmd.CombinedOutput()
		if err != nil {
			return "", fmt.Errorf("%s %s: %v: %s", cc, strings.Join(args, " "), err, firstLine(string(out)))
		}
		return string(out), nil
	}
	pre, err := run("-dM", "-E")
	if err != nil {
		return HostConfig{}, err
	}
	hc := HostConfig{CC: cc}
	var defs []string
	for _, l := range strings.Split(pre, "\n") {
		if strings.HasPrefix(l, "#") {
			defs = append(defs, l)
		}
	}
	hc.Predefined = strings.Join(defs, "\n")
	verbose, err := run("-v", "-E")
	if err != nil {
		return HostConfig{}, err
	}
	var list *[]string
	for _, l := range strings.Split(verbose, "\n") {
		switch {
		case l == `#include "..." search starts here:`:
			list = &hc.IncludePaths
		case l == "#include <...> search starts here:":
			list = &hc.SysIncludePaths
		case l == "End of search list.":
			list = nil
		case list != nil && strings.HasPrefix(l, " "):
			*list = append(*list, filepath.Clean(strings.TrimSpace(l)))
		}
	}
	if len(hc.SysIncludePaths) == 0 {
		return HostConfig{}, fmt.Errorf("%s -v -E: no system include paths in its output", cc)
	}
	return hc, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// HostConfigSource, when set, supplies host configurations instead of
// ProbeHost (chorus keeps them in a disk cache keyed by the compiler).
// It is consulted at most once per probe and process.
var HostConfigSource func(HostProbe) (HostConfig, error)
