package changes

import "fyne.io/fyne/v2"

// diffRow is one row of the side-by-side layout: the line shown on the
// left (old) half and the one on the right (new), -1 for none. A context
// line is on both halves (left == right); a hunk's header and git's "No
// newline" note take the whole row (left == right too).
type diffRow struct{ left, right int }

// sideRows pairs each run of removed lines with the run of added lines
// after it, row by row, the longer run's extra lines facing nothing.
func sideRows(lines []Line) []diffRow {
	rows := make([]diffRow, 0, len(lines))
	for i := 0; i < len(lines); {
		if k := lines[i].Kind; k != '-' && k != '+' {
			rows = append(rows, diffRow{i, i})
			i++
			continue
		}
		dels := i
		for i < len(lines) && lines[i].Kind == '-' {
			i++
		}
		adds := i
		for i < len(lines) && lines[i].Kind == '+' {
			i++
		}
		nd, na := adds-dels, i-adds
		for k := 0; k < max(nd, na); k++ {
			r := diffRow{-1, -1}
			if k < nd {
				r.left = dels + k
			}
			if k < na {
				r.right = adds + k
			}
			rows = append(rows, r)
		}
	}
	return rows
}

// SetSideBySide shows the old file on the left and the new on the right
// (on), or one unified column (off, the default). Side by side, lines are
// cut at the half's edge rather than scrolled sideways. The view keeps its
// place, by proportion.
func (v *DiffView) SetSideBySide(on bool) {
	if v.split == on {
		return
	}
	at := float32(0)
	if h := v.body.MinSize().Height; h > 0 {
		at = v.scroll.Offset.Y / h
	}
	v.split = on
	v.rows = nil
	if on {
		v.rows = sideRows(v.lines)
	}
	v.sel = noSelection()
	v.body.reset()
	v.scroll.Offset = fyne.Position{}
	v.scroll.Refresh()
	v.ScrollTo(0, at*v.body.MinSize().Height)
}

// SideBySide says whether the view shows old and new side by side.
func (v *DiffView) SideBySide() bool { return v.split }

// rowCount is how many rows the view has.
func (v *DiffView) rowCount() int {
	if v.split {
		return len(v.rows)
	}
	return len(v.lines)
}

// rowLines is the first and last line row r shows.
func (v *DiffView) rowLines(r int) (lo, hi int) {
	if !v.split {
		return r, r
	}
	row := v.rows[r]
	switch {
	case row.left < 0:
		return row.right, row.right
	case row.right < 0:
		return row.left, row.left
	}
	return min(row.left, row.right), max(row.left, row.right)
}

// linesOfRows is the first and last line rows [first, last) show (last >
// first). Side by side, a row of a long removed run can come after rows
// showing later added lines, so every row is looked at.
func (v *DiffView) linesOfRows(first, last int) (lo, hi int) {
	lo, hi = v.rowLines(first)
	if !v.split {
		return lo, last - 1
	}
	for r := first + 1; r < last; r++ {
		l, h := v.rowLines(r)
		lo, hi = min(lo, l), max(hi, h)
	}
	return lo, hi
}
