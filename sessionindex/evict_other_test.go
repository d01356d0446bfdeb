//go:build !linux

package sessionindex

import "testing"

// evict cannot drop a file from the cache here: the cold benchmark then
// measures a fresh Open on a warm cache.
func evict(b *testing.B, path string) {}
