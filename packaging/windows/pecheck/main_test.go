package main

import (
	"encoding/binary"
	"testing"
)

// A resource section with one icon group (16x16 and 256x256) and one version
// resource, laid out as a linker does: type, name and language directories,
// then data entries pointing at RVAs.
func TestParseResources(t *testing.T) {
	const base = 0x5000
	le := binary.LittleEndian
	b := make([]byte, 0x400)
	dir := func(off, n int) { le.PutUint16(b[off+14:], uint16(n)) }
	entry := func(off, i int, name, target uint32) {
		le.PutUint32(b[off+16+8*i:], name)
		le.PutUint32(b[off+16+8*i+4:], target)
	}
	// root: GROUP_ICON -> 0x40, VERSION -> 0x80
	dir(0, 2)
	entry(0, 0, rtGroupIcon, 0x80000000|0x40)
	entry(0, 1, rtVersion, 0x80000000|0x80)
	for _, d := range []struct{ name, lang, leaf, data, size int }{{0x40, 0x60, 0x100, 0x200, 34}, {0x80, 0xa0, 0x110, 0x300, 64}} {
		dir(d.name, 1)
		entry(d.name, 0, 1, 0x80000000|uint32(d.lang))
		dir(d.lang, 1)
		entry(d.lang, 0, 0x409, uint32(d.leaf))
		le.PutUint32(b[d.leaf:], uint32(base+d.data))
		le.PutUint32(b[d.leaf+4:], uint32(d.size))
	}
	// GRPICONDIR: reserved, type 1, count 2, then 14-byte entries.
	g := b[0x200:]
	le.PutUint16(g[2:], 1)
	le.PutUint16(g[4:], 2)
	g[6], g[7] = 16, 16
	g[20], g[21] = 0, 0
	// VS_FIXEDFILEINFO at a 32-bit boundary: signature, struct version, 1.2.3.4.
	v := b[0x300+40:]
	le.PutUint32(v, 0xFEEF04BD)
	le.PutUint32(v[8:], 1<<16|2)
	le.PutUint32(v[12:], 3<<16|4)

	res, err := parseResources(b, base)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].typ != rtGroupIcon || res[1].typ != rtVersion {
		t.Fatalf("resources %+v", res)
	}
	sizes, err := groupIconSizes(res[0].data)
	if err != nil || len(sizes) != 2 || sizes[0] != "16x16" || sizes[1] != "256x256" {
		t.Errorf("icon sizes %v, %v", sizes, err)
	}
	if ver, err := fixedFileVersion(res[1].data); err != nil || ver != "1.2.3.4" {
		t.Errorf("version %q, %v", ver, err)
	}
}

func TestParseResourcesRejectsOutOfRange(t *testing.T) {
	b := make([]byte, 64)
	binary.LittleEndian.PutUint16(b[14:], 1)
	binary.LittleEndian.PutUint32(b[16:], rtIcon)
	binary.LittleEndian.PutUint32(b[20:], 0x80000000|0x1000) // a subdirectory past the end
	if _, err := parseResources(b, 0x1000); err == nil {
		t.Fatal("no error for a directory outside the section")
	}
}

func TestImportedDLLs(t *testing.T) {
	got := importedDLLs([]string{"CreateWindowExW:USER32.dll", "wglCreateContext:OPENGL32.dll", "GetDC:USER32.dll", "pthread_create:libwinpthread-1.dll"})
	want := []string{"libwinpthread-1.dll", "OPENGL32.dll", "USER32.dll"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
