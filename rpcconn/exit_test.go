package rpcconn

import (
	"strings"
	"testing"
)

func TestExitExplained(t *testing.T) {
	for _, tc := range []struct {
		exit Exit
		want string
	}{
		{Exit{Code: 3}, "exit code 3"},
		{Exit{Code: 137}, "exit code 137 — killed (SIGKILL)"},
		{Exit{Code: 143}, "exit code 143 — terminated (SIGTERM)"},
		{Exit{Code: -1, Signal: "killed"}, "signal killed — killed (SIGKILL)"},
		{Exit{Code: -1, Signal: "terminated"}, "signal terminated — terminated (SIGTERM)"},
		{Exit{Code: 0}, "exit code 0 — it ended by itself"},
		{Exit{Code: 0, Expected: true}, "exit code 0"},
	} {
		if got := tc.exit.Explain(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%+v: %q, want it to start with %q", tc.exit, got, tc.want)
		}
	}
	if !(&Exit{}).EndedByItself() || (&Exit{Expected: true}).EndedByItself() || (&Exit{Code: -1, Signal: "killed"}).EndedByItself() {
		t.Error("EndedByItself")
	}
}
