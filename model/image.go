package model

import "knightcode.ai/desktop/rpcconn"

// Image is an image sent with a prompt: its bytes in base64 and its MIME
// type.
type Image struct {
	Data     string
	MimeType string
}

// protoImages are images as the protocol sends them (nil for none).
func protoImages(images []Image) []rpcconn.Image {
	if len(images) == 0 {
		return nil
	}
	out := make([]rpcconn.Image, len(images))
	for i, im := range images {
		out[i] = rpcconn.Image{Data: im.Data, MimeType: im.MimeType}
	}
	return out
}
