package cfg

import (
	"reflect"

	"modernc.org/cc/v4"
)

var nodeType = reflect.TypeOf((*cc.Node)(nil)).Elem()

// walkAST calls f for n and every AST node below it (pre-order), following
// the exported fields of cc's node structs. cc has no walker of its own.
func walkAST(n cc.Node, f func(cc.Node)) {
	if n == nil {
		return
	}
	stack := []reflect.Value{reflect.ValueOf(n)}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v.Kind() == reflect.Interface {
			v = v.Elem()
		}
		if !v.IsValid() || v.Kind() != reflect.Pointer || v.IsNil() {
			continue
		}
		node, ok := v.Interface().(cc.Node)
		if !ok {
			continue
		}
		f(node)
		s := v.Elem()
		if s.Kind() != reflect.Struct {
			continue
		}
		st := s.Type()
		// Push in reverse so children are visited in field order.
		for i := st.NumField() - 1; i >= 0; i-- {
			fd := st.Field(i)
			if !fd.IsExported() || fd.Anonymous {
				continue
			}
			fv := s.Field(i)
			switch fv.Kind() {
			case reflect.Pointer:
				if !fv.IsNil() && fv.Type().Implements(nodeType) {
					stack = append(stack, fv)
				}
			case reflect.Interface:
				if !fv.IsNil() && fv.Type().Implements(nodeType) {
					stack = append(stack, fv)
				}
			}
		}
	}
}
