package rpcconn

import "testing"

func TestExitDescribed(t *testing.T) {
	for _, tc := range []struct {
		exit Exit
		want string
	}{
		{Exit{Code: 3}, "exited unexpectedly (exit code 3)"},
		{Exit{Code: 137}, "was killed (SIGKILL, exit code 137): out of memory, or another program stopped it"},
		{Exit{Code: 143}, "was terminated (SIGTERM, exit code 143) by another program or a shutdown"},
		{Exit{Code: -1, Signal: "killed"}, "was killed (SIGKILL): out of memory, or another program stopped it"},
		{Exit{Code: -1, Signal: "terminated"}, "was terminated (SIGTERM) by another program or a shutdown"},
		{Exit{Code: -1, Signal: "segmentation fault"}, "crashed (SIGSEGV): a segmentation fault"},
		{Exit{Code: 0}, "ended the session by itself"},
		{Exit{Code: 0, Expected: true}, "stopped (exit code 0)"},
	} {
		if got := tc.exit.Describe(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.exit, got, tc.want)
		}
	}
	if !(&Exit{}).EndedByItself() || (&Exit{Expected: true}).EndedByItself() || (&Exit{Code: -1, Signal: "killed"}).EndedByItself() {
		t.Error("EndedByItself")
	}
}
