package modelsetup

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func decodeJSONC(t *testing.T, text string) any {
	t.Helper()
	v, err := parseJSONC(text)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, text)
	}
	var out any
	if err := json.Unmarshal(plainJSON(text, v), &out); err != nil {
		t.Fatalf("plain JSON does not decode: %v", err)
	}
	return out
}

func TestParseJSONCAcceptsCommentsAndTrailingCommas(t *testing.T) {
	text := "\ufeff// models\n{\n  /* local */ \"providers\": {\"a\": {\"models\": [1, 2.5e3, -3,],},}, // done\n  \"s\": \"x // not a comment\", \"t\": true, \"n\": null,\n}\n"
	got := decodeJSONC(t, text)
	want := map[string]any{"providers": map[string]any{"a": map[string]any{"models": []any{1.0, 2500.0, -3.0}}},
		"s": "x // not a comment", "t": true, "n": nil}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v", got)
	}
}

func TestParseJSONCErrorsSayWhere(t *testing.T) {
	for text, want := range map[string]string{
		"{\n  \"a\": 1\n  \"b\": 2\n}": "line 3, column 3: expected , or } after the value of \"a\"",
		"{\"a\": [1, 2}":               "expected , or ] in a list",
		"{\"a\": /* open":              "a /* comment is not closed",
		"{\"a\": \"x\n\"}":             "a string runs past the end of its line",
		"{\"a\": 1} 2":                 "more after the end",
		"{a: 1}":                       "expected a quoted name",
		"{\"a\": tru}":                 "unexpected",
		strings.Repeat("[", 300):       "nested too deeply",
	} {
		_, err := parseJSONC(text)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", text, err, want)
		}
	}
}

func TestSetPathKeepsTheRestOfTheText(t *testing.T) {
	text := `{
	// the user's own provider
	"providers": {
		"mine": {"baseUrl": "http://x/v1"}, // keep me
	},
	"other": 1,
}
`
	out, err := setPath(text, []string{"providers", "ollama"}, map[string]any{"baseUrl": "http://127.0.0.1:11434/v1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, kept := range []string{"// the user's own provider", `"mine": {"baseUrl": "http://x/v1"}, // keep me`, `"other": 1,`} {
		if !strings.Contains(out, kept) {
			t.Errorf("lost %q:\n%s", kept, out)
		}
	}
	// The file's tabs, and its trailing comma after the new member too.
	if !strings.Contains(out, "// keep me\n\t\t\"ollama\": {\n\t\t\t\"baseUrl\": \"http://127.0.0.1:11434/v1\"\n\t\t},\n\t},") {
		t.Errorf("the new member is not indented as the file is:\n%s", out)
	}
	got := decodeJSONC(t, out).(map[string]any)
	provs := got["providers"].(map[string]any)
	if len(provs) != 2 || provs["ollama"] == nil || got["other"] != 1.0 {
		t.Fatalf("decoded: %#v", got)
	}
	// Replacing a value touches only that value.
	again, err := setPath(out, []string{"providers", "mine"}, "x")
	if err != nil || !strings.Contains(again, `"mine": "x", // keep me`) || !strings.Contains(again, "// the user's own provider") {
		t.Fatalf("replace: %v\n%s", err, again)
	}
}

func TestSetPathMakesWhatIsMissing(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "{\n  \"providers\": {\n    \"p\": 1\n  }\n}\n"},
		{"// only a comment\n", "// only a comment\n{\n  \"providers\": {\n    \"p\": 1\n  }\n}\n"},
		{"{}", "{\n  \"providers\": {\n    \"p\": 1\n  }\n}"},
		{"{\"providers\": {}}", "{\"providers\": {\n  \"p\": 1\n}}"},
		{"{\n    \"a\": 1\n}", "{\n    \"a\": 1,\n    \"providers\": {\n        \"p\": 1\n    }\n}"},
		{"{\n  \"a\": 1 // one\n}", "{\n  \"a\": 1, // one\n  \"providers\": {\n    \"p\": 1\n  }\n}"},
	} {
		out, err := setPath(tc.in, []string{"providers", "p"}, 1)
		if err != nil || out != tc.want {
			t.Errorf("setPath(%q) = %q, %v; want %q", tc.in, out, err, tc.want)
		}
		decodeJSONC(t, out)
	}
	if _, err := setPath(`{"providers": []}`, []string{"providers", "p"}, 1); err == nil {
		t.Error("providers as a list was changed")
	}
}
