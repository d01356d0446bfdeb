package tools

// The sidebar's text selection: one at a time, in a card's output or
// command, kept in that card's document.

// selectionStarted follows a selection starting in d: the one before, in
// another card, goes.
func (s *ToolSidebar) selectionStarted(d *MonoDoc) {
	if s.selDoc != nil && s.selDoc != d {
		s.selDoc.ClearSelection()
		s.redrawDoc(s.selDoc)
	}
	s.selDoc = d
	if s.OnSelectStart != nil {
		s.OnSelectStart()
	}
}

// ClearSelection drops the sidebar's selection, as one starts elsewhere.
func (s *ToolSidebar) ClearSelection() {
	if d := s.selDoc; d != nil {
		s.selDoc = nil
		d.ClearSelection()
		s.redrawDoc(d)
	}
}

// SelectedText is the text selected in the sidebar, or "": also when the
// card holding it has gone (a new session, a fork).
func (s *ToolSidebar) SelectedText() string {
	if s.selDoc == nil {
		return ""
	}
	for _, st := range s.states {
		if st.doc == s.selDoc || st.cmd == s.selDoc {
			return s.selDoc.SelectedText()
		}
	}
	s.selDoc = nil
	return ""
}

// CopySelection puts the selected text on the clipboard; it reports
// whether there was any (Ctrl+C then goes nowhere else).
func (s *ToolSidebar) CopySelection() bool {
	text := s.SelectedText()
	if text == "" {
		return false
	}
	s.copyText(text)
	return true
}

// redrawDoc redraws the views showing d, if any is on screen.
func (s *ToolSidebar) redrawDoc(d *MonoDoc) {
	for _, v := range s.list.views {
		for _, m := range []*MonoView{v.mono, v.cmdMono} {
			if m.doc == d {
				m.syncRows()
				m.Refresh()
			}
		}
	}
}
