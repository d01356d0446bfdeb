package rpctest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
)

// newID returns an 8-hex-digit id, the shape the agent uses for entries.
func newID() string {
	var b [4]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// newUUID returns a random version-4 UUID, the shape of extension dialog ids.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}

func nowMillis() int64 { return time.Now().UnixMilli() }

// nowISO is the timestamp format of session entries (JavaScript's toISOString).
func nowISO() string { return time.Now().UTC().Format("2006-01-02T15:04:05.000Z") }
