package rpctest_test

import (
	"os"
	"testing"

	"knightcode.ai/desktop/rpcconn/rpctest"
)

func TestMain(m *testing.M) {
	rpctest.RunIfChild()
	os.Exit(m.Run())
}
