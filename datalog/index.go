package datalog

import "github.com/google/btree"

// hashIndex maps the values of some columns (the key) to the rows holding
// them. Rows with equal keys form a chain through next, newest first, so a
// lookup restricted to a row range [lo, hi) skips the few rows appended
// after hi and stops at the first row below lo. Appending a row is O(1)
// and never moves existing chains, so evaluation may insert into a relation
// while it walks one of its chains.
type hashIndex struct {
	cols   []int
	mask   uint32   // bit c set when column c is in cols
	slots  []uint64 // entry(fingerprint of key, chain head row); 0 == empty
	next   []int32  // next[r] == next row+1 in r's chain; 0 == end
	groups int
	key    []uint32 // scratch for add
}

func newHashIndex(s *store, mask uint32) *hashIndex {
	ix := &hashIndex{mask: mask, slots: make([]uint64, 16)}
	for c := 0; c < s.arity; c++ {
		if mask&(1<<c) != 0 {
			ix.cols = append(ix.cols, c)
		}
	}
	ix.key = make([]uint32, len(ix.cols))
	ix.next = make([]int32, s.n, max(s.n, 16))
	for r := 0; r < s.n; r++ {
		ix.add(s, r)
	}
	return ix
}

func (ix *hashIndex) rowMatches(s *store, r int, key []uint32) bool {
	row := s.row(r)
	for k, c := range ix.cols {
		if row[c] != key[k] {
			return false
		}
	}
	return true
}

func (ix *hashIndex) add(s *store, r int) {
	row := s.row(r)
	for k, c := range ix.cols {
		ix.key[k] = row[c]
	}
	for len(ix.next) <= r {
		ix.next = append(ix.next, 0)
	}
	m := len(ix.slots) - 1
	fp := uint32(hashVals(ix.key))
	for i := int(fp) & m; ; i = (i + 1) & m {
		e := ix.slots[i]
		if e == 0 {
			ix.slots[i] = entry(fp, r)
			ix.groups++
			if ix.groups*2 > len(ix.slots) {
				ix.slots = growTable(ix.slots)
			}
			return
		}
		if entryFP(e) == fp && ix.rowMatches(s, entryRow(e), ix.key) {
			ix.next[r] = int32(entryRow(e) + 1)
			ix.slots[i] = entry(fp, r)
			return
		}
	}
}

// head returns the newest row whose key columns equal key, or -1. Follow
// the chain with nextRow.
func (ix *hashIndex) head(s *store, key []uint32) int {
	m := len(ix.slots) - 1
	fp := uint32(hashVals(key))
	for i := int(fp) & m; ; i = (i + 1) & m {
		e := ix.slots[i]
		if e == 0 {
			return -1
		}
		if entryFP(e) == fp && ix.rowMatches(s, entryRow(e), key) {
			return entryRow(e)
		}
	}
}

func (ix *hashIndex) nextRow(r int) int { return int(ix.next[r]) - 1 }

// btreeIndex is the ordered alternative, kept selectable (WithIndexes) so
// the choice can be measured: a github.com/google/btree of (packed key,
// row) pairs for keys of at most two columns, so that a row range [lo, hi)
// of one key is exactly one AscendRange. The btree may not change during
// an iteration over it, so it catches up with the store only at the start
// of each semi-naive iteration (sync); lookups never need rows appended
// after that point.
type btreeIndex struct {
	cols   []int
	mask   uint32
	tree   *btree.BTreeG[bitem]
	synced int
}

type bitem struct {
	key uint64
	row int32
}

func bitemLess(a, b bitem) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.row < b.row
}

func newBtreeIndex(s *store, mask uint32) *btreeIndex {
	ix := &btreeIndex{mask: mask, tree: btree.NewG[bitem](32, bitemLess)}
	for c := 0; c < s.arity; c++ {
		if mask&(1<<c) != 0 {
			ix.cols = append(ix.cols, c)
		}
	}
	ix.sync(s)
	return ix
}

func packKey(key []uint32) uint64 {
	switch len(key) {
	case 0:
		return 0
	case 1:
		return uint64(key[0])
	}
	return uint64(key[0])<<32 | uint64(key[1])
}

func (ix *btreeIndex) sync(s *store) {
	var buf [2]uint32
	for r := ix.synced; r < s.n; r++ {
		row := s.row(r)
		for k, c := range ix.cols {
			buf[k] = row[c]
		}
		ix.tree.ReplaceOrInsert(bitem{packKey(buf[:len(ix.cols)]), int32(r)})
	}
	ix.synced = s.n
}

// indexFor returns the index on the columns in mask, building it on first
// use. kind selects hash or btree; btree indexes exist only for keys of at
// most two columns (hash otherwise).
func (s *store) indexFor(mask uint32, kind IndexKind) (*hashIndex, *btreeIndex) {
	if kind == BTreeIndexes && popcount(mask) <= 2 {
		for _, ix := range s.btree {
			if ix.mask == mask {
				return nil, ix
			}
		}
		ix := newBtreeIndex(s, mask)
		s.btree = append(s.btree, ix)
		return nil, ix
	}
	for _, ix := range s.hash {
		if ix.mask == mask {
			return ix, nil
		}
	}
	ix := newHashIndex(s, mask)
	s.hash = append(s.hash, ix)
	return ix, nil
}

func (s *store) syncBtrees() {
	for _, ix := range s.btree {
		ix.sync(s)
	}
}

func popcount(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}
