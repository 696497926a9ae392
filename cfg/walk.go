package cfg

import (
	"reflect"
	"sync"

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
		// Push in reverse so children are visited in field order.
		fields := nodeFields(s.Type())
		for i := len(fields) - 1; i >= 0; i-- {
			if fv := s.Field(fields[i]); !fv.IsNil() {
				stack = append(stack, fv)
			}
		}
	}
}

// nodeFieldCache maps a node struct type to the indexes of its exported,
// non-embedded fields of pointer or interface type implementing cc.Node
// (reflect's Field is too slow to ask per node: it dominated lowering).
var nodeFieldCache sync.Map // reflect.Type -> []int

func nodeFields(st reflect.Type) []int {
	if v, ok := nodeFieldCache.Load(st); ok {
		return v.([]int)
	}
	var out []int
	for i := 0; i < st.NumField(); i++ {
		fd := st.Field(i)
		if !fd.IsExported() || fd.Anonymous {
			continue
		}
		if k := fd.Type.Kind(); (k == reflect.Pointer || k == reflect.Interface) && fd.Type.Implements(nodeType) {
			out = append(out, i)
		}
	}
	nodeFieldCache.Store(st, out)
	return out
}
