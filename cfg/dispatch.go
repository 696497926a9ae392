package cfg

import "modernc.org/cc/v4"

// prototypeAdmits reports whether a function of type gt may be the
// target of a call with nargs arguments. A function declared with the
// prototype (void) takes no arguments: a call through a pointer whose
// type passes arguments has an incompatible function type (C11 6.7.6.3p15:
// both types have parameter type lists and they differ in the number of
// parameters), which is undefined behaviour (6.3.2.3p8, 6.5.2.2p9), so
// the function is no candidate of such a call. A function declared
// without a prototype (f(), MaxArgs < 0) or variadic admits any count,
// as before.
func prototypeAdmits(gt *cc.FunctionType, nargs int) bool {
	if gt.IsVariadic() || gt.MaxArgs() < 0 {
		return true
	}
	return nargs <= gt.MaxArgs()
}
