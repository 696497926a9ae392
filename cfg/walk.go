package cfg

import (
	"reflect"
	"sync"

	"modernc.org/cc/v4"
)

var nodeType = reflect.TypeOf((*cc.Node)(nil)).Elem()

// walkAST calls f for n and every AST node below it (pre-order), following
// the exported fields of cc's node structs. cc has no walker of its own.
// The node types seen in C code go through walkNodeGenerated, a type
// switch generated from the same field rule (walk_gen.go, its test keeps
// it in step with nodeFields); any other type through walkNodeReflect.
func walkAST(n cc.Node, f func(cc.Node)) {
	if n == nil {
		return
	}
	stack := []cc.Node{n}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		var known bool
		if stack, known = walkNodeGenerated(n, f, stack); !known {
			stack = walkNodeReflect(n, f, stack)
		}
	}
}

// walkNodeReflect calls f for n unless it is a nil pointer (or no pointer)
// and pushes its children onto stack, in reverse so that they are visited
// in field order.
func walkNodeReflect(n cc.Node, f func(cc.Node), stack []cc.Node) []cc.Node {
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return stack
	}
	f(n)
	s := v.Elem()
	if s.Kind() != reflect.Struct {
		return stack
	}
	fields := nodeFields(s.Type())
	for i := len(fields) - 1; i >= 0; i-- {
		// A field of pointer type is pushed only when not nil; one of
		// interface type when it holds something (then a nil pointer
		// in it is skipped when popped).
		if fv := s.Field(fields[i]); !fv.IsNil() {
			stack = append(stack, fv.Interface().(cc.Node))
		}
	}
	return stack
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
