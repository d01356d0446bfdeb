package model

import "knightcode.ai/desktop/rpcconn"

// ExtWidget is a block of text lines an extension put above or below the
// editor.
type ExtWidget struct {
	Lines []string
	Below bool
}

func (s *Session) setWidget(e *rpcconn.ExtensionUIRequest) {
	if s.extWidgets == nil {
		s.extWidgets = map[string]ExtWidget{}
	}
	if e.WidgetLines == nil {
		delete(s.extWidgets, e.WidgetKey)
	} else {
		lines := make([]string, len(e.WidgetLines))
		for i, l := range e.WidgetLines {
			lines[i] = Plain(l)
		}
		s.extWidgets[e.WidgetKey] = ExtWidget{Lines: lines, Below: e.WidgetPlacement == "belowEditor"}
	}
	s.widgetsRev++
}

func (s *Session) extWidgetsCopy() map[string]ExtWidget {
	out := make(map[string]ExtWidget, len(s.extWidgets))
	for k, v := range s.extWidgets {
		out[k] = v
	}
	return out
}
