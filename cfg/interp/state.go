package interp

import (
	"encoding/binary"
	"hash/maphash"
	"sort"
	"sync"
	"sync/atomic"

	"chorus/cfg"
)

// ThreadID identifies a thread instance within one execution: main is 0,
// spawned threads get 1, 2, ... in spawn order. It is also the value a
// Spawn stores through its Handle and a Join reads.
type ThreadID int

// Thread is one thread instance.
type Thread struct {
	ID       ThreadID
	Template *cfg.Template
	Loc      *cfg.Loc // where the thread stands (before Loc.Act runs)
	Atomic   int      // atomic-section nesting depth
	Done     bool     // the thread stands at its template's Exit
	// Halted reports that the thread ran the action of a location without
	// successors that is not its exit (abort, exit, reach_error's check, a
	// failed __VERIFIER_assume): it stays there for good.
	Halted bool
	// Pending reports a thread that has been spawned but has not moved
	// yet (Options.LazyStart): it does not count against MaxInstances
	// until its first move starts it.
	Pending bool
	// Locals holds the thread's local registers, indexed by
	// Machine.LocalIndex; LocalObjs the instances of its template's
	// LocalObjects, indexed by Machine.LocalObjectIndex.
	Locals    []Value
	LocalObjs []InstID

	gen uint64 // copy-on-write owner (see State.gen)
}

// Instance is a memory object instance: a byte range plus the pointers
// stored in it.
type Instance struct {
	Object *cfg.Object // the static object or the allocation site
	Owner  ThreadID    // the owning thread of a LocalObject instance (else -1)
	Size   int64
	Bytes  []byte
	// Ptrs records the pointers stored in the instance, sorted by offset:
	// the bytes hold the pointer's offset, the entry its provenance. A
	// store overlapping an entry removes it; a load of exactly an entry's
	// bytes yields the pointer again, a load of part of it yields plain
	// bytes (provenance lost — byte-wise copies of pointers are not
	// supported).
	Ptrs  []PtrEntry
	Freed bool

	gen uint64
}

// PtrEntry is a pointer stored at Offset with Size bytes pointing into Obj.
type PtrEntry struct {
	Offset int64
	Size   int64
	Obj    InstID
}

// State is a whole-program state: global registers, memory object
// instances and threads. States share unchanged instances and threads
// (copy on write), so Clone is cheap: O(#globals + #instances +
// #threads) pointer copies.
type State struct {
	Globals []Value     // global registers, indexed by Machine.GlobalIndex
	Insts   []*Instance // indexed by InstID; Insts[0] is nil
	Threads []*Thread   // indexed by ThreadID
	Spawned []int       // instances created so far per template ID

	// gen marks the instances and threads this state may mutate in place:
	// those whose gen equals it. Clone gives both states fresh
	// generations, so whatever they shared is copied before it changes.
	// It is atomic because cloning (and so Step) writes the source's gen:
	// several goroutines may step from one shared state.
	gen atomic.Uint64
}

var genCounter atomic.Uint64

func newGen() uint64 { return genCounter.Add(1) }

// Clone returns an independent copy of s.
func (s *State) Clone() *State {
	c := &State{
		Globals: append([]Value(nil), s.Globals...),
		Insts:   append([]*Instance(nil), s.Insts...),
		Threads: append([]*Thread(nil), s.Threads...),
		Spawned: append([]int(nil), s.Spawned...),
	}
	c.gen.Store(newGen())
	s.gen.Store(newGen())
	return c
}

// Thread returns the thread with the given id, or nil.
func (s *State) Thread(id ThreadID) *Thread {
	if id < 0 || int(id) >= len(s.Threads) {
		return nil
	}
	return s.Threads[id]
}

// Inst returns the instance with the given id, or nil.
func (s *State) Inst(id InstID) *Instance {
	if id <= 0 || int(id) >= len(s.Insts) {
		return nil
	}
	return s.Insts[id]
}

// mutThread returns thread id, copied first if shared with another state.
func (s *State) mutThread(id ThreadID) *Thread {
	t := s.Threads[id]
	g := s.gen.Load()
	if t.gen != g {
		c := *t
		c.Locals = append([]Value(nil), t.Locals...)
		c.LocalObjs = append([]InstID(nil), t.LocalObjs...)
		c.gen = g
		s.Threads[id] = &c
		t = &c
	}
	return t
}

// mutInst returns instance id, copied first if shared with another state.
func (s *State) mutInst(id InstID) *Instance {
	in := s.Insts[id]
	g := s.gen.Load()
	if in.gen != g {
		c := *in
		c.Bytes = append([]byte(nil), in.Bytes...)
		c.Ptrs = append([]PtrEntry(nil), in.Ptrs...)
		c.gen = g
		s.Insts[id] = &c
		in = &c
	}
	return in
}

func (s *State) addInst(in *Instance) InstID {
	in.gen = s.gen.Load()
	s.Insts = append(s.Insts, in)
	return InstID(len(s.Insts) - 1)
}

// Stuck reports whether thread t stands at a location without successors
// that is not its exit (abort, exit, or the end of an impossible path): it
// will move at most once more (running that location's action).
func (t *Thread) Stuck() bool { return !t.Done && len(t.Loc.Succs) == 0 }

// Finished reports whether the thread will never move again because it
// terminated or halted.
func (t *Thread) Finished() bool { return t.Done || t.Halted }

// AllDone reports whether every thread has terminated.
func (s *State) AllDone() bool {
	for _, t := range s.Threads {
		if !t.Done {
			return false
		}
	}
	return true
}

// Encode appends a canonical encoding of s to buf: two states have the
// same encoding exactly when they are equal (same values, same instance
// and thread numbering).
func (s *State) Encode(buf []byte) []byte {
	buf = binary.AppendUvarint(buf, uint64(len(s.Globals)))
	for _, v := range s.Globals {
		buf = appendValue(buf, v)
	}
	buf = binary.AppendUvarint(buf, uint64(len(s.Insts)))
	for _, in := range s.Insts[1:] {
		buf = binary.AppendUvarint(buf, uint64(in.Object.ID))
		buf = binary.AppendVarint(buf, int64(in.Owner))
		buf = binary.AppendVarint(buf, in.Size)
		if in.Freed {
			buf = append(buf, 1)
		} else {
			buf = append(buf, 0)
		}
		buf = binary.AppendUvarint(buf, uint64(len(in.Bytes)))
		buf = append(buf, in.Bytes...)
		buf = binary.AppendUvarint(buf, uint64(len(in.Ptrs)))
		for _, p := range in.Ptrs {
			buf = binary.AppendVarint(buf, p.Offset)
			buf = binary.AppendVarint(buf, p.Size)
			buf = binary.AppendVarint(buf, int64(p.Obj))
		}
	}
	buf = binary.AppendUvarint(buf, uint64(len(s.Threads)))
	for _, t := range s.Threads {
		buf = appendThread(buf, t)
	}
	buf = binary.AppendUvarint(buf, uint64(len(s.Spawned)))
	for _, n := range s.Spawned {
		buf = binary.AppendUvarint(buf, uint64(n))
	}
	return buf
}

func appendThread(buf []byte, t *Thread) []byte {
	buf = binary.AppendUvarint(buf, uint64(t.Template.ID))
	buf = binary.AppendUvarint(buf, uint64(t.Loc.ID))
	buf = binary.AppendUvarint(buf, uint64(t.Atomic))
	var flags byte
	if t.Done {
		flags |= 1
	}
	if t.Halted {
		flags |= 2
	}
	if t.Pending {
		flags |= 4
	}
	buf = append(buf, flags)
	buf = binary.AppendUvarint(buf, uint64(len(t.Locals)))
	for _, v := range t.Locals {
		buf = appendValue(buf, v)
	}
	buf = binary.AppendUvarint(buf, uint64(len(t.LocalObjs)))
	for _, o := range t.LocalObjs {
		buf = binary.AppendVarint(buf, int64(o))
	}
	return buf
}

func appendValue(buf []byte, v Value) []byte {
	buf = binary.AppendVarint(buf, int64(v.Obj))
	if v.Big != nil {
		buf = append(buf, 1)
		b := v.Big.Bytes()
		buf = append(buf, byte(v.Big.Sign()+1))
		buf = binary.AppendUvarint(buf, uint64(len(b)))
		return append(buf, b...)
	}
	buf = append(buf, 0)
	return binary.AppendVarint(buf, v.N)
}

// hashSeeds are two independent maphash seeds: the two 64-bit hashes of
// the encoding make a 128-bit state fingerprint (valid within one
// process).
var hashSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

var encodeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

// Hash is a 128-bit fingerprint of the canonical encoding (two seeded
// maphash values; the same within a process for equal states).
func (s *State) Hash() [16]byte {
	bp := encodeBufs.Get().(*[]byte)
	buf := s.Encode((*bp)[:0])
	var out [16]byte
	binary.LittleEndian.PutUint64(out[:8], maphash.Bytes(hashSeeds[0], buf))
	binary.LittleEndian.PutUint64(out[8:], maphash.Bytes(hashSeeds[1], buf))
	*bp = buf
	encodeBufs.Put(bp)
	return out
}

// store writes v (of type t) at off in instance id. The caller has
// checked the bounds.
func (s *State) store(id InstID, off int64, t cfg.Type, v Value) {
	in := s.mutInst(id)
	size := typeSize(t)
	var bits uint64
	switch {
	case t.Kind == cfg.FloatType && t.Bits == 32:
		bits = uint64(floatBits32(v))
	case v.Big != nil:
		bits = num{big: v.Big}.low64()
	default:
		bits = uint64(v.N)
	}
	for i := int64(0); i < size; i++ {
		if i < 8 {
			in.Bytes[off+i] = byte(bits >> (8 * uint(i)))
		} else {
			in.Bytes[off+i] = 0 // long double padding
		}
	}
	// Drop the pointers this store overwrites.
	keep := in.Ptrs[:0]
	for _, p := range in.Ptrs {
		if p.Offset+p.Size <= off || off+size <= p.Offset {
			keep = append(keep, p)
		}
	}
	in.Ptrs = keep
	if v.Obj != 0 {
		i := sort.Search(len(in.Ptrs), func(i int) bool { return in.Ptrs[i].Offset > off })
		in.Ptrs = append(in.Ptrs, PtrEntry{})
		copy(in.Ptrs[i+1:], in.Ptrs[i:])
		in.Ptrs[i] = PtrEntry{Offset: off, Size: size, Obj: v.Obj}
	}
}

// load reads a value of type t at off in instance in (bounds checked by
// the caller).
func load(in *Instance, off int64, t cfg.Type) Value {
	size := typeSize(t)
	var bits uint64
	for i := int64(0); i < size && i < 8; i++ {
		bits |= uint64(in.Bytes[off+i]) << (8 * uint(i))
	}
	for _, p := range in.Ptrs {
		if p.Offset == off && p.Size == size {
			return Value{Obj: p.Obj, N: wrapBits(bits, int(8*min(size, 8)), true)}
		}
	}
	if t.Kind == cfg.FloatType {
		if t.Bits == 32 {
			return floatValue(float64(float32frombits(uint32(bits))))
		}
		return Value{N: int64(bits)}
	}
	bitsN := int(8 * min(size, 8))
	signed := t.Signed && t.Kind == cfg.IntType
	return Value{N: wrapBits(bits, bitsN, signed)}
}

// typeSize is the number of bytes an access of type t covers.
func typeSize(t cfg.Type) int64 {
	n := int64((t.Bits + 7) / 8)
	if n == 0 {
		n = 1
	}
	return n
}
