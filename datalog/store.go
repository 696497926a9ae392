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
//
//	hashing the tuple's values; tuples of arity
//
// ≤ 2 are hashed as one packed uint64. Nothing in the insert or lookup path
// allocates except amortized slice growth.
type store struct {
	arity int
	n     int      // number of rows
	data  []uint32 // n*arity values
	set   []uint64 // open addressing, fingerprinted entries (see entry); len is a power of two
	hash  []*hashIndex
	btree []*btreeIndex

	// dense is an exact membership bitmap kept for arity 1 and 2 while all
	// values stay small (bit v for arity 1, v0*denseSide+v1 for arity 2):
	// membership probes then hit a cache-resident bitmap instead of the
	// hash set. denseOK turns false for good when a value is too large.
	dense   []uint64
	denseOK bool
}

const (
	denseSide  = 1 << 12 // arity 2: second value < 4096, first < denseLimit2
	denseLimit = 1 << 12
)

// maxRows bounds a relation's rows: row numbers are stored in 31 bits.
const maxRows = 1<<31 - 2

func newStore(arity int) *store {
	return &store{arity: arity, set: make([]uint64, 16), denseOK: arity == 1 || arity == 2}
}

// denseBit returns t's bit number, or -1 when t is outside the bitmap's
// domain.
func (s *store) denseBit(t []uint32) int {
	if s.arity == 1 {
		if t[0] >= denseLimit*denseSide {
			return -1
		}
		return int(t[0])
	}
	if t[0] >= denseLimit || t[1] >= denseSide {
		return -1
	}
	return int(t[0])*denseSide + int(t[1])
}

// denseHas reports membership using the bitmap; ok is false when the
// bitmap cannot answer.
func (s *store) denseHas(t []uint32) (has, ok bool) {
	if !s.denseOK {
		return false, false
	}
	b := s.denseBit(t)
	if b < 0 {
		return false, true // the bitmap holds every tuple, so t is absent
	}
	w := b >> 6
	return w < len(s.dense) && s.dense[w]&(1<<(b&63)) != 0, true
}

func (s *store) denseAdd(t []uint32) {
	b := s.denseBit(t)
	if b < 0 {
		s.denseOK, s.dense = false, nil
		return
	}
	w := b >> 6
	if w >= len(s.dense) {
		s.dense = append(s.dense, make([]uint64, w+1-len(s.dense)+len(s.dense)/2)...)
	}
	s.dense[w] |= 1 << (b & 63)
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

// Set entries pack the low 32 bits of the tuple's hash (the fingerprint)
// with row+1: probing compares fingerprints first and touches the tuple
// data only on a match, and growing never rereads the tuples (the slot is
// the fingerprint's low bits, so tables stay below 2^32 entries).
func entry(fp uint32, row int) uint64 { return uint64(fp)<<32 | uint64(row+1) }
func entryRow(e uint64) int           { return int(uint32(e)) - 1 }
func entryFP(e uint64) uint32         { return uint32(e >> 32) }

// find returns the row holding t, or -1.
func (s *store) find(t []uint32) int {
	mask := len(s.set) - 1
	fp := uint32(hashVals(t))
	for i := int(fp) & mask; ; i = (i + 1) & mask {
		e := s.set[i]
		if e == 0 {
			return -1
		}
		if entryFP(e) == fp && equalVals(s.row(entryRow(e)), t) {
			return entryRow(e)
		}
	}
}

func (s *store) contains(t []uint32) bool {
	if len(t) != s.arity {
		return false
	}
	if has, ok := s.denseHas(t); ok {
		return has
	}
	return s.find(t) >= 0
}

// insert appends t unless present and reports whether it was new. It
// updates the hash indexes at once; btree indexes catch up lazily (sync).
func (s *store) insert(t []uint32) bool {
	return s.insertHashed(t, uint32(hashVals(t)))
}

// insertHashed is insert with t's fingerprint precomputed.
func (s *store) insertHashed(t []uint32, fp uint32) bool {
	if has, ok := s.denseHas(t); ok && has {
		return false
	}
	mask := len(s.set) - 1
	i := int(fp) & mask
	for ; ; i = (i + 1) & mask {
		e := s.set[i]
		if e == 0 {
			break
		}
		if entryFP(e) == fp && equalVals(s.row(entryRow(e)), t) {
			return false
		}
	}
	if s.denseOK {
		s.denseAdd(t)
	}
	r := s.n
	s.data = append(s.data, t...)
	s.n++
	s.set[i] = entry(fp, r)
	if s.n*2 > len(s.set) { // load factor 1/2 keeps probe sequences short
		s.set = growTable(s.set)
	}
	for _, ix := range s.hash {
		ix.add(s, r)
	}
	return true
}

// growTable doubles an open-addressing table of fingerprinted entries.
func growTable(old []uint64) []uint64 {
	set := make([]uint64, len(old)*2)
	mask := len(set) - 1
	for _, e := range old {
		if e == 0 {
			continue
		}
		i := int(entryFP(e)) & mask
		for set[i] != 0 {
			i = (i + 1) & mask
		}
		set[i] = e
	}
	return set
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
