package main

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
)

// writeGzip writes lines to path through a temporary file, so an
// interrupted run never leaves a truncated recording for benchmarks to
// trip over. It returns the compressed size.
func writeGzip(path string, lines [][]byte) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".record-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	zw, err := gzip.NewWriterLevel(tmp, gzip.BestCompression)
	if err != nil {
		tmp.Close()
		return 0, err
	}
	for _, line := range lines {
		if _, err := zw.Write(line); err != nil {
			tmp.Close()
			return 0, err
		}
	}
	if err := zw.Close(); err != nil {
		tmp.Close()
		return 0, err
	}
	fi, err := tmp.Stat()
	if err != nil {
		tmp.Close()
		return 0, err
	}
	if err := tmp.Close(); err != nil {
		return 0, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return 0, err
	}
	return fi.Size(), os.Rename(tmp.Name(), path)
}

func describe(path string, lines [][]byte, compressed int64) string {
	var total, biggest int
	at := 0
	for i, line := range lines {
		total += len(line)
		if len(line) > biggest {
			biggest, at = len(line), i
		}
	}
	return fmt.Sprintf("%s: %d lines, %d bytes (%d gzipped); biggest line %d bytes (line %d, %s)",
		filepath.Base(path), len(lines), total, compressed, biggest, at+1, recordType(lines[at]))
}
