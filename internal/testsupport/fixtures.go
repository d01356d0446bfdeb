package testsupport

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// piRecording is a session pi 0.73.1 wrote, in a temporary folder long
// gone, and the name it gave the file.
const (
	piRecordingName = "2026-11-30T15-02-14-636Z_01a22cfa-5b6a-7340-bccd-f705be850327.jsonl"
	// PiRecordingCwd is the working folder in the recording's header.
	PiRecordingCwd = "/tmp/TestListSessionsRealPi3184103466/001/work"
)

func piRecording(tb testing.TB) []byte {
	tb.Helper()
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "sessionfiles", "testdata", "sessions", "pi-0.73.1.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// PiFixture copies pi's recording to dir with its header's working folder
// set to cwd and, when lastInput > 0, the last reply's input tokens set to
// lastInput.
func PiFixture(tb testing.TB, dir, cwd string, lastInput int) string {
	tb.Helper()
	text := strings.Replace(string(piRecording(tb)), `"cwd":"`+PiRecordingCwd+`"`, `"cwd":`+strconv.Quote(cwd), 1)
	if lastInput > 0 {
		i := strings.LastIndex(text, `"usage":{"input":1461,`)
		if i < 0 {
			tb.Fatal("the fixture changed: no last usage")
		}
		text = text[:i] + `"usage":{"input":` + strconv.Itoa(lastInput) + `,` + text[i+len(`"usage":{"input":1461,`):]
		// pi counts the context by the reply's total.
		text = strings.Replace(text, `"totalTokens":1470,`, `"totalTokens":`+strconv.Itoa(lastInput+9)+`,`, 1)
	}
	path := filepath.Join(dir, piRecordingName)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// GoneFixture copies pi's recording, whose folder is gone, into dir as it
// is. It skips the test on a machine where that folder exists.
func GoneFixture(tb testing.TB, dir string) (path, cwd string) {
	tb.Helper()
	data := piRecording(tb)
	os.MkdirAll(dir, 0o755)
	path = filepath.Join(dir, piRecordingName)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(PiRecordingCwd); err == nil {
		tb.Skip(PiRecordingCwd + " exists on this machine")
	}
	return path, PiRecordingCwd
}
