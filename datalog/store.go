package datalog

// store holds the tuples of one relation, back to back in one []uint32 in
// insertion order (row r occupies data[r*arity:(r+1)*arity]). Rows are only
// ever appended, never modified or removed, so a row range [lo, hi) is a
// stable snapshot: semi-naive evaluation names "old", "delta" and "full"
// versions of a relation by row ranges instead of copying tuples, and a
// Tuples view handed to the client stays valid while the relation grows.
// Recomputing a relation from scratch replaces its store with a fresh one.
//
// Duplicates are rejected with an open-addressing hash set of row numbers
// (set[i] == row+1, 0 == empty) hashing the tuple's values; tuples of arity
// ≤ 2 are hashed as one packed uint64. Nothing in the insert or lookup path
// allocates except amortized slice growth.
type store struct {
	arity int
	n     int      // number of rows
	data  []uint32 // n*arity values
	set   []int32  // open addressing; len is a power of two
	hash  []*hashIndex
	btree []*btreeIndex
}

func newStore(arity int) *store {
	return &store{arity: arity, set: make([]int32, 16)}
}

func (s *store) row(r int) []uint32 {
	return s.data[r*s.arity : (r+1)*s.arity : (r+1)*s.arity]
}

const (
	hashMul1 = 0x9E3779B97F4A7C15
	hashMul2 = 0xBF58476D1CE4E5B9
)

// mix64 is the splitmix64 finalizer.
func mix64(h uint64) uint64 {
	h ^= h >> 30
	h *= hashMul2
	h ^= h >> 27
	h *= 0x94D049BB133111EB
	h ^= h >> 31
	return h
}

// hashVals hashes a tuple (or an index key). Tuples of arity ≤ 2 are packed
// into one uint64 and mixed once.
func hashVals(v []uint32) uint64 {
	switch len(v) {
	case 0:
		return 0x12345
	case 1:
		return mix64(uint64(v[0]) + hashMul1)
	case 2:
		return mix64(uint64(v[0])<<32 | uint64(v[1]))
	}
	h := uint64(len(v))
	for _, x := range v {
		h = mix64(h*hashMul1 + uint64(x))
	}
	return h
}

func equalVals(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// find returns the row holding t, or -1.
func (s *store) find(t []uint32) int {
	mask := len(s.set) - 1
	for i := int(hashVals(t)) & mask; ; i = (i + 1) & mask {
		e := s.set[i]
		if e == 0 {
			return -1
		}
		if equalVals(s.row(int(e-1)), t) {
			return int(e - 1)
		}
	}
}

func (s *store) contains(t []uint32) bool {
	if len(t) != s.arity {
		return false
	}
	return s.find(t) >= 0
}

// insert appends t unless present and reports whether it was new. It
// updates the hash indexes at once; btree indexes catch up lazily (sync).
func (s *store) insert(t []uint32) bool {
	mask := len(s.set) - 1
	i := int(hashVals(t)) & mask
	for ; ; i = (i + 1) & mask {
		e := s.set[i]
		if e == 0 {
			break
		}
		if equalVals(s.row(int(e-1)), t) {
			return false
		}
	}
	r := s.n
	s.data = append(s.data, t...)
	s.n++
	s.set[i] = int32(r + 1)
	if s.n*4 > len(s.set)*3 { // load factor 3/4
		s.growSet()
	}
	for _, ix := range s.hash {
		ix.add(s, r)
	}
	return true
}

func (s *store) growSet() {
	set := make([]int32, len(s.set)*2)
	mask := len(set) - 1
	for r := 0; r < s.n; r++ {
		i := int(hashVals(s.row(r))) & mask
		for set[i] != 0 {
			i = (i + 1) & mask
		}
		set[i] = int32(r + 1)
	}
	s.set = set
}

// tuples returns a read-only view of rows [lo, hi).
func (s *store) tuples(lo, hi int) Tuples {
	return Tuples{arity: s.arity, n: hi - lo, data: s.data[lo*s.arity : hi*s.arity : hi*s.arity]}
}

// Tuples is a read-only list of tuples of one arity, stored back to back.
// A Tuples value stays valid (and unchanged) while the engine evaluates
// further; do not modify the slices At returns.
type Tuples struct {
	arity int
	n     int
	data  []uint32
}

// Len returns the number of tuples.
func (t Tuples) Len() int { return t.n }

// Arity returns the arity of the tuples.
func (t Tuples) Arity() int { return t.arity }

// At returns tuple i (0 ≤ i < Len()). The slice aliases engine memory.
func (t Tuples) At(i int) []uint32 {
	return t.data[i*t.arity : (i+1)*t.arity : (i+1)*t.arity]
}

// Slice returns the tuples as a fresh [][]uint32 (convenient in tests; it
// allocates).
func (t Tuples) Slice() [][]uint32 {
	out := make([][]uint32, t.n)
	for i := range out {
		out[i] = append([]uint32(nil), t.At(i)...)
	}
	return out
}
