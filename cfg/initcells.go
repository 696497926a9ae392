package cfg

import (
	"cmp"
	"slices"

	"modernc.org/cc/v4"
)

// The initial contents of summary cells of initialised objects.
//
// A summary cell stands for every instance of its leaf in the object: for
// struct pt t[3], t[*].x is bytes 0, 8 and 16, t[*].y bytes 4, 12 and 20.
// Its instances interleave with other cells' and the IR does not carry the
// strides, so which entries of Object.Init belong to a summary cell can
// only be read off the C type: cellInits does that here, where the layout
// is known, and records the answer in Var.InitCell for the analysis.
// (Taking a summary's bytes to run from its offset to the next cell's, as
// the analysis once did, saw t[0].x's initializer only, and proved
// t[1].x == 1 for t = {{1, 2}, {3, 4}, {5, 6}}.)
//
// Every real byte q of the object maps to its canonical offsets (normalize:
// array elements fold onto the first, union members each give one); a cell
// covers the canonical bytes [Offset, Offset+size). For each initializer
// and each cell it touches:
//   - exact: it starts an instance of the cell (its first byte maps to the
//     cell's offset) with the cell's very type, and each of its bytes maps
//     into the cell at the same distance from the start: the instance holds
//     its value;
//   - otherwise (a union member of another type, a part of a scalar, a
//     scalar spread over cells): the cell may hold any value of its type.
// Bytes no initializer covers hold 0, so a cell that one of them maps into
// may hold 0. Past maxZeroScan uncovered bytes per object every summary
// cell of it may hold 0 (more values: sound, less precise).

// maxZeroScan bounds the uncovered bytes cellInits maps one by one per
// object.
const maxZeroScan = 1 << 16

// cellInits sets InitCell on the summary cells of every initialised global
// and string object whose layout cfg knows.
func (b *builder) cellInits() {
	for _, o := range b.prog.Objects {
		if o.Kind != GlobalObject && o.Kind != StringObject || o.Size <= 0 {
			continue
		}
		info := b.objInfo[o]
		if info == nil || info.ctype == nil || info.arrayOf {
			continue
		}
		var summaries []*Var
		for _, c := range o.Cells {
			if c.Summary {
				summaries = append(summaries, c)
			}
		}
		if len(summaries) > 0 {
			setCellInits(o, info.ctype, summaries)
		}
	}
}

// setCellInits computes InitCell for the summary cells of o, whose C type
// is t.
func setCellInits(o *Object, t cc.Type, cells []*Var) {
	span := int64(0) // the canonical bytes the cells cover: [0, span)
	for _, c := range cells {
		span = max(span, c.Offset+cellSize(c))
	}
	// covering[k]: the cells whose canonical bytes hold k.
	covering := make([][]*Var, span)
	for _, c := range cells {
		for k := c.Offset; k < c.Offset+cellSize(c); k++ {
			covering[k] = append(covering[k], c)
		}
	}
	inits := make(map[*Var]*CellInit, len(cells))
	initOf := func(c *Var) *CellInit {
		ci := inits[c]
		if ci == nil {
			ci = &CellInit{}
			inits[c] = ci
		}
		return ci
	}
	cellsAt := func(k int64) []*Var {
		if k < 0 || k >= span {
			return nil
		}
		return covering[k]
	}
	for _, in := range o.Init {
		isz := max(in.Type.Size(), 1)
		starts := normalize(t, in.Offset)
		// exact: the cells this initializer starts an instance of, with
		// their type.
		var exact []*Var
		for _, k := range starts {
			for _, c := range cellsAt(k) {
				if c.Offset == k && c.Type == in.Type && !slices.Contains(exact, c) {
					exact = append(exact, c)
				}
			}
		}
		if len(starts) == 1 && len(exact) == 1 && alone(covering, exact[0], isz) {
			// The common case, a scalar of a struct or array: its bytes
			// are the instance's and no other cell's.
			ci := initOf(exact[0])
			ci.Values = append(ci.Values, in.Value)
			continue
		}
		// Every byte: a cell it maps into other than at its distance from
		// an exact start makes that cell's instance a partial one.
		partial := map[*Var]bool{}
		for j := int64(0); j < isz; j++ {
			for _, k := range normalize(t, in.Offset+j) {
				for _, c := range cellsAt(k) {
					if !(slices.Contains(exact, c) && k-c.Offset == j) {
						partial[c] = true
					}
				}
			}
		}
		for _, c := range exact {
			if !partial[c] {
				ci := initOf(c)
				ci.Values = append(ci.Values, in.Value)
			}
		}
		for c := range partial {
			initOf(c).Any = true
		}
	}
	// The bytes no initializer covers hold 0.
	covered := make([]byteRange, 0, len(o.Init))
	for _, in := range o.Init {
		covered = append(covered, byteRange{in.Offset, in.Offset + max(in.Type.Size(), 1)})
	}
	slices.SortFunc(covered, func(a, b byteRange) int { return cmp.Compare(a.lo, b.lo) })
	scanned := int64(0)
	zeroAt := func(q int64) {
		for _, k := range normalize(t, q) {
			for _, c := range cellsAt(k) {
				initOf(c).Zero = true
			}
		}
	}
	next := int64(0) // the first byte not yet known covered
	gap := func(lo, hi int64) {
		for q := lo; q < hi && scanned <= maxZeroScan; q++ {
			scanned++
			zeroAt(q)
		}
	}
	for _, r := range covered {
		if r.lo > next {
			gap(next, min(r.lo, o.Size))
		}
		next = max(next, r.hi)
	}
	if next < o.Size {
		gap(next, o.Size)
	}
	for _, c := range cells {
		ci := initOf(c)
		if scanned > maxZeroScan || len(ci.Values) == 0 && !ci.Any {
			// Unscanned bytes, or an instance-less cell (only read out of
			// bounds): 0 too.
			ci.Zero = true
		}
		c.InitCell = ci
	}
}

// cellSize is the number of bytes one instance of memory cell c covers.
func cellSize(c *Var) int64 { return max(c.Type.Size(), 1) }

// byteRange is the half-open byte range [lo, hi).
type byteRange struct{ lo, hi int64 }

// alone reports whether the canonical bytes of an instance of c starting
// at its offset, isz of them, belong to c and no other cell.
func alone(covering [][]*Var, c *Var, isz int64) bool {
	if c.Offset+isz > int64(len(covering)) {
		return false
	}
	for _, cs := range covering[c.Offset : c.Offset+isz] {
		if len(cs) != 1 || cs[0] != c {
			return false
		}
	}
	return true
}
