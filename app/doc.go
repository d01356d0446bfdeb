// Package app is the window: it puts the surfaces of widgets/ together for
// one session (model.Session and its model.Controller), runs the menu,
// shortcuts, dialogs and settings, prepares dropped images and finds the
// agent executable. Protocol types stop at model: the window gets model's
// plain types, and imports rpcconn only to start an agent (rpcconn.Options).
//
// It is the only package that knows both model and widgets: it hands the
// model's plain data to the widgets and turns their callbacks into
// controller calls, always on the UI goroutine (w.do hops there).
package app
