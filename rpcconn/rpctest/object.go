package rpctest

import (
	"bytes"
	"encoding/json"
)

// object is a JSON object that keeps its keys in the order written, so records
// read like the real agent's ("type" first) without a struct for each of the
// dozens of event shapes.
type object []field

type field struct {
	key   string
	value any
}

// obj builds an object from alternating keys and values.
func obj(kv ...any) object {
	o := make(object, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, field{kv[i].(string), kv[i+1]})
	}
	return o
}

// with returns a copy with one more field; the copy keeps callers that share a
// base object from seeing each other's additions.
func (o object) with(key string, value any) object {
	c := make(object, len(o), len(o)+1)
	copy(c, o)
	return append(c, field{key, value})
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := encode(f.key)
		if err != nil {
			return nil, err
		}
		v, err := encode(f.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encode marshals like JavaScript's JSON.stringify as far as it matters here:
// '<', '>' and '&' stay literal. U+2028/U+2029 are made literal by the writer.
// An object is encoded directly: through encoding/json its output would be
// re-scanned at every level of nesting, seconds for a 9 MiB delta.
func encode(v any) ([]byte, error) {
	if o, ok := v.(object); ok {
		return o.MarshalJSON()
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// mustJSON is for values built here from plain data, which always marshal.
func mustJSON(v any) json.RawMessage {
	b, err := encode(v)
	if err != nil {
		panic(err)
	}
	return b
}

// jsonNull is response data that must be written as null, not omitted.
var jsonNull = json.RawMessage("null")
