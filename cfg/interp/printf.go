package interp

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"chorus/cfg"
)

// maxStringLen bounds how far %s reads when looking for the terminating
// NUL (the instance bounds are checked as well).
const maxStringLen = 1 << 20

// format renders a printf call the way glibc does for the conversions C
// test programs use: d i u o x X c s p % with flags "-+ #0", width,
// precision ('*' too) and length modifiers hh h l ll j z t L q; e f g
// (and upper-case variants) for floating arguments. Varargs are read as
// the conversion's C type: the argument's bits are truncated or extended
// to it, like the real ABI does for int-sized values.
func (m *Machine) format(s *State, t *Thread, out *cfg.Output) (string, error) {
	f := out.Format
	var b strings.Builder
	argi := 0
	next := func() (Value, cfg.Type, error) {
		if argi >= len(out.Args) {
			return Value{}, cfg.Type{}, rtErr("printf: too few arguments for %q", f)
		}
		e := out.Args[argi]
		argi++
		v, err := m.eval(s, t, e)
		return v, e.ExprType(), err
	}
	longBits := 64
	if m.Prog.DataModel == cfg.ILP32 {
		longBits = 32
	}
	ptrBits := m.Prog.DataModel.PtrBits()
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(f) {
			return "", rtErr("printf: format ends with %%")
		}
		if f[i] == '%' {
			b.WriteByte('%')
			continue
		}
		var flags []byte
		for i < len(f) && strings.IndexByte("-+ #0", f[i]) >= 0 {
			flags = append(flags, f[i])
			i++
		}
		width, prec := -1, -1
		readNum := func() (int, error) {
			if i < len(f) && f[i] == '*' {
				i++
				v, ty, err := next()
				if err != nil {
					return 0, err
				}
				return int(wrapBits(mathOf(v, ty).low64(), 32, true)), nil
			}
			j := i
			for i < len(f) && f[i] >= '0' && f[i] <= '9' {
				i++
			}
			n, _ := strconv.Atoi(f[j:i])
			return n, nil
		}
		if i < len(f) && (f[i] == '*' || (f[i] >= '1' && f[i] <= '9')) {
			n, err := readNum()
			if err != nil {
				return "", err
			}
			if n < 0 { // a negative '*' width means left adjustment
				flags = append(flags, '-')
				n = -n
			}
			width = n
		}
		if i < len(f) && f[i] == '.' {
			i++
			n, err := readNum()
			if err != nil {
				return "", err
			}
			if n >= 0 {
				prec = n
			}
		}
		j := i
		for i < len(f) && strings.IndexByte("hljztLq", f[i]) >= 0 {
			i++
		}
		bits := 32
		switch f[j:i] {
		case "":
		case "hh":
			bits = 8
		case "h":
			bits = 16
		case "l":
			bits = longBits
		case "ll", "j", "q", "L":
			bits = 64
		case "z", "t":
			bits = ptrBits
		default:
			return "", rtErr("printf: unsupported length modifier %q", f[j:i])
		}
		if i >= len(f) {
			return "", rtErr("printf: incomplete conversion in %q", f)
		}
		conv := f[i]
		spec := func(verb byte) string {
			var sb strings.Builder
			sb.WriteByte('%')
			sb.Write(flags)
			if width >= 0 {
				sb.WriteString(strconv.Itoa(width))
			}
			if prec >= 0 {
				sb.WriteByte('.')
				sb.WriteString(strconv.Itoa(prec))
			}
			sb.WriteByte(verb)
			return sb.String()
		}
		switch conv {
		case 'd', 'i', 'u', 'o', 'x', 'X':
			v, ty, err := next()
			if err != nil {
				return "", err
			}
			if v.Obj != 0 {
				return "", rtErr("printf: %%%c of a pointer value", conv)
			}
			if ty.Kind == cfg.FloatType {
				return "", rtErr("printf: %%%c of a floating value", conv)
			}
			raw := mathOf(v, ty).low64()
			if conv == 'd' || conv == 'i' {
				b.WriteString(fmt.Sprintf(spec('d'), wrapBits(raw, bits, true)))
				break
			}
			u := uint64(wrapBits(raw, bits, false))
			if bits < 64 {
				u &= 1<<uint(bits) - 1
			}
			if u == 0 && conv != 'o' {
				flags = dropFlag(flags, '#') // C prints no 0x prefix for zero
			}
			verb := conv
			if conv == 'u' {
				verb = 'd'
			}
			b.WriteString(fmt.Sprintf(spec(verb), u))
		case 'c':
			v, ty, err := next()
			if err != nil {
				return "", err
			}
			b.WriteString(pad([]byte{byte(mathOf(v, ty).low64())}, width, flags))
		case 's':
			v, _, err := next()
			if err != nil {
				return "", err
			}
			str, err := m.cString(s, v, prec)
			if err != nil {
				return "", err
			}
			b.WriteString(pad(str, width, flags))
		case 'p':
			v, ty, err := next()
			if err != nil {
				return "", err
			}
			var str string
			switch {
			case v.Obj != 0:
				// Real addresses differ from run to run; print a stable
				// pseudo-address.
				str = fmt.Sprintf("0x%x", uint64(v.Obj)<<20+uint64(v.N))
			case v.N == 0 && v.Big == nil:
				str = "(nil)"
			default:
				str = fmt.Sprintf("0x%x", mathOf(v, ty).low64())
			}
			b.WriteString(pad([]byte(str), width, flags))
		case 'f', 'F', 'e', 'E', 'g', 'G', 'a', 'A':
			v, ty, err := next()
			if err != nil {
				return "", err
			}
			x := floatOf(v, ty)
			verb := conv
			switch conv {
			case 'F':
				verb = 'f'
			case 'a':
				verb = 'x'
			case 'A':
				verb = 'X'
			}
			if prec < 0 && (conv == 'f' || conv == 'F' || conv == 'e' || conv == 'E' || conv == 'g' || conv == 'G') {
				prec = 6
			}
			str := fmt.Sprintf(spec(verb), x)
			if math.IsInf(x, 0) || math.IsNaN(x) {
				str = strings.ToLower(str)
				if conv >= 'A' && conv <= 'Z' {
					str = strings.ToUpper(str)
				}
				str = strings.Replace(str, "+inf", "inf", 1)
			}
			b.WriteString(str)
		default:
			return "", rtErr("printf: unsupported conversion %%%c", conv)
		}
	}
	return b.String(), nil
}

func dropFlag(flags []byte, f byte) []byte {
	out := flags[:0:0]
	for _, c := range flags {
		if c != f {
			out = append(out, c)
		}
	}
	return out
}

// pad pads s to width bytes (C counts bytes, not runes).
func pad(s []byte, width int, flags []byte) string {
	if len(s) >= width {
		return string(s)
	}
	fill := strings.Repeat(" ", width-len(s))
	for _, c := range flags {
		if c == '-' {
			return string(s) + fill
		}
	}
	return fill + string(s)
}

// cString reads the NUL-terminated string p points to, at most limit
// bytes when limit >= 0. A null pointer prints as "(null)" like glibc.
func (m *Machine) cString(s *State, p Value, limit int) ([]byte, error) {
	if p.Obj == 0 {
		if p.N == 0 && p.Big == nil {
			return []byte("(null)"), nil
		}
		return nil, rtErr("printf: %%s of invalid pointer %v", p)
	}
	in := s.Inst(p.Obj)
	if in == nil || in.Freed || in.Object.Kind == cfg.FuncObject {
		return nil, rtErr("printf: %%s of invalid pointer %v", p)
	}
	var out []byte
	for off := p.N; ; off++ {
		if limit >= 0 && len(out) >= limit {
			return out, nil
		}
		if off < 0 || off >= in.Size || len(out) >= maxStringLen {
			return nil, rtErr("printf: %%s reads outside %s (offset %d of %d)", in.Object.Name, off, in.Size)
		}
		c := in.Bytes[off]
		if c == 0 {
			return out, nil
		}
		out = append(out, c)
	}
}
