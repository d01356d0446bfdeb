package rpcconn

import (
	"encoding/json"
	"strconv"
)

// decodeUsage reads the usage object every 0.9.x message_update carries.
// It runs once per delta, so it avoids encoding/json's reflection; anything
// unexpected (a float token count, an unknown shape) falls back to it.
func decodeUsage(raw []byte, u *Usage) error {
	ok := true
	err := objectFields(raw, func(key, value []byte) {
		if !ok {
			return
		}
		switch string(key) {
		case "input":
			u.Input, ok = atoi(value)
		case "output":
			u.Output, ok = atoi(value)
		case "cacheRead":
			u.CacheRead, ok = atoi(value)
		case "cacheWrite":
			u.CacheWrite, ok = atoi(value)
		case "totalTokens":
			u.TotalTokens, ok = atoi(value)
		case "cost":
			ok = decodeUsageCost(value, &u.Cost)
		}
	})
	if err != nil || !ok {
		*u = Usage{}
		return json.Unmarshal(raw, u)
	}
	return nil
}

func decodeUsageCost(raw []byte, c *UsageCost) bool {
	ok := true
	err := objectFields(raw, func(key, value []byte) {
		if !ok {
			return
		}
		var f *float64
		switch string(key) {
		case "input":
			f = &c.Input
		case "output":
			f = &c.Output
		case "cacheRead":
			f = &c.CacheRead
		case "cacheWrite":
			f = &c.CacheWrite
		case "total":
			f = &c.Total
		default:
			return
		}
		v, err := strconv.ParseFloat(string(value), 64)
		*f, ok = v, err == nil
	})
	return err == nil && ok
}

func atoi(b []byte) (int, bool) {
	n, err := strconv.Atoi(string(b))
	return n, err == nil
}
