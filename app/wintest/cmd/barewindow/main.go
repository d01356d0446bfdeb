// Command barewindow is the baseline for the UI benchmarks: a trivial Fyne
// window with one Label and, with -entry, a focused multi-line Entry (whose
// blinking cursor repaints the window twice a second), measured side by
// side with the app on the same display.
//
//	barewindow [-entry] [-title TITLE] [-size 1200x800]
//
// With KNIGHTCODE_TRACE=FILE it writes the app's "show" mark and an
// "editor <len>" mark whenever the Entry's text changes, so keypress-to-echo
// can be measured on it the same way as on the app's editor.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

func main() {
	entry := flag.Bool("entry", false, "add a multi-line Entry and focus it")
	title := flag.String("title", "Bare window", "the window title")
	size := flag.String("size", "1200x800", "the window size, WIDTHxHEIGHT")
	flag.Parse()
	var w, h float32
	if _, err := fmt.Sscanf(strings.ToLower(*size), "%fx%f", &w, &h); err != nil || w <= 0 || h <= 0 {
		fmt.Fprintf(os.Stderr, "barewindow: bad -size %q\n", *size)
		os.Exit(2)
	}
	mark := tracer()

	a := fyneapp.NewWithID("ai.knightcode.barewindow")
	win := a.NewWindow(*title)
	label := widget.NewLabel("A bare Fyne window: the baseline for the UI benchmarks.")
	if *entry {
		e := widget.NewMultiLineEntry()
		e.SetPlaceHolder("Type here")
		e.OnChanged = func(s string) { mark("editor", len(s)) }
		win.SetContent(container.NewBorder(nil, e, nil, nil, label))
		win.Canvas().Focus(e)
	} else {
		win.SetContent(label)
	}
	win.Resize(fyne.NewSize(w, h))

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-signals
		fyne.Do(a.Quit)
	}()
	mark("show", "")
	win.ShowAndRun()
}

// tracer returns a function writing "<unix-nanos> <event> <arg>" lines to
// KNIGHTCODE_TRACE, or doing nothing without it.
func tracer() func(event string, arg any) {
	path := os.Getenv("KNIGHTCODE_TRACE")
	if path == "" {
		return func(string, any) {}
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "barewindow:", err)
		return func(string, any) {}
	}
	var mu sync.Mutex
	return func(event string, arg any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(f, "%d %s %v\n", time.Now().UnixNano(), event, arg)
	}
}
