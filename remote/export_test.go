package remote

import "context"

// FetchFiles exposes fetchFiles to the end-to-end tests in remote_test.
func FetchFiles(h Host, ctx context.Context, paths []string, got func(i int, data []byte) error) error {
	return h.fetchFiles(ctx, paths, got)
}

// SetMaxUnsizedFile lowers the limit of ReadFile and CopyFile for a test;
// the returned function restores it. Not for parallel tests.
func SetMaxUnsizedFile(n int64) (restore func()) {
	old := maxUnsizedFile
	maxUnsizedFile = n
	return func() { maxUnsizedFile = old }
}
