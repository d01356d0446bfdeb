// Command pecheck checks that a cross-built Windows executable is what we
// ship: a PE32+ x86-64 GUI binary that needs no DLL beyond Windows' own and
// whose resources carry the app icon, the version information and the
// manifest. scripts/package.sh runs it on the .exe it builds:
//
//	go run ./packaging/windows/pecheck [-version 0.1.0.1] FILE.exe
//
// It prints one line per finding and exits 1 when something is missing.
package main

import (
	"debug/pe"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Resource types (winuser.h).
const (
	rtIcon      = 3
	rtGroupIcon = 14
	rtVersion   = 16
	rtManifest  = 24
)

var typeNames = map[uint32]string{rtIcon: "ICON", rtGroupIcon: "GROUP_ICON", rtVersion: "VERSION", rtManifest: "MANIFEST"}

// resource is one leaf of the resource tree: its type ID and its bytes.
type resource struct {
	typ  uint32
	data []byte
}

func main() {
	wantVersion := flag.String("version", "", "expected file version: x.y.z, or x.y.z.build to compare the build number too")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: pecheck [-version x.y.z[.build]] FILE.exe")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	problems, err := check(flag.Arg(0), *wantVersion, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "pecheck:", err)
		os.Exit(1)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, "pecheck: FAIL:", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

// check reads the executable at path, reports what it finds to out and
// returns what is missing or wrong.
func check(path, wantVersion string, out io.Writer) ([]string, error) {
	f, err := pe.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: not a PE executable: %w", path, err)
	}
	defer f.Close()

	var problems []string
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok {
		return []string{"not PE32+ (no 64-bit optional header)"}, nil
	}
	fmt.Fprintln(out, "format:    PE32+")
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		problems = append(problems, fmt.Sprintf("machine %#x, want AMD64", f.Machine))
	} else {
		fmt.Fprintln(out, "machine:   x86-64")
	}
	switch oh.Subsystem {
	case pe.IMAGE_SUBSYSTEM_WINDOWS_GUI:
		fmt.Fprintln(out, "subsystem: GUI (no console window)")
	case pe.IMAGE_SUBSYSTEM_WINDOWS_CUI:
		problems = append(problems, "console subsystem: a console window would open beside the app (link with -H=windowsgui)")
	default:
		problems = append(problems, fmt.Sprintf("subsystem %d", oh.Subsystem))
	}

	// A clean Windows has the system DLLs only: a mingw runtime DLL
	// (libwinpthread-1.dll, libgcc_s_seh-1.dll) would stop the app starting.
	// (debug/pe's ImportedLibraries is empty for PE files; the DLLs are in
	// ImportedSymbols' "symbol:DLL" strings.)
	if syms, err := f.ImportedSymbols(); err != nil {
		problems = append(problems, "import table: "+err.Error())
	} else {
		libs := importedDLLs(syms)
		if len(libs) == 0 {
			problems = append(problems, "no imported DLLs: import table not read")
		}
		fmt.Fprintln(out, "imports:  ", strings.Join(libs, " "))
		for _, l := range libs {
			if strings.HasPrefix(strings.ToLower(l), "lib") {
				problems = append(problems, "imports "+l+", which Windows does not have: link it statically")
			}
		}
	}

	if int(pe.IMAGE_DIRECTORY_ENTRY_RESOURCE) >= len(oh.DataDirectory) {
		return append(problems, "no resource directory"), nil
	}
	dir := oh.DataDirectory[pe.IMAGE_DIRECTORY_ENTRY_RESOURCE]
	if dir.VirtualAddress == 0 || dir.Size == 0 {
		return append(problems, "no resources (no icon, version or manifest)"), nil
	}
	sec := sectionAt(f, dir.VirtualAddress)
	if sec == nil {
		return append(problems, "resource directory is in no section"), nil
	}
	raw, err := sec.Data()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", sec.Name, err)
	}
	start := dir.VirtualAddress - sec.VirtualAddress
	if int(start) > len(raw) {
		return append(problems, "resource directory outside its section"), nil
	}
	res, err := parseResources(raw[start:], dir.VirtualAddress)
	if err != nil {
		return append(problems, "resources: "+err.Error()), nil
	}

	counts := map[uint32]int{}
	for _, r := range res {
		counts[r.typ]++
	}
	var have []string
	for _, t := range []uint32{rtIcon, rtGroupIcon, rtVersion, rtManifest} {
		if counts[t] == 0 {
			problems = append(problems, "no "+typeNames[t]+" resource")
			continue
		}
		have = append(have, fmt.Sprintf("%s×%d", typeNames[t], counts[t]))
	}
	fmt.Fprintln(out, "resources:", strings.Join(have, " "))

	for _, r := range res {
		switch r.typ {
		case rtGroupIcon:
			sizes, err := groupIconSizes(r.data)
			if err != nil {
				problems = append(problems, "icon group: "+err.Error())
			} else {
				fmt.Fprintln(out, "icon:     ", strings.Join(sizes, " "))
			}
		case rtVersion:
			v, err := fixedFileVersion(r.data)
			if err != nil {
				problems = append(problems, "version info: "+err.Error())
				continue
			}
			fmt.Fprintln(out, "version:  ", v)
			if wantVersion != "" && !strings.HasPrefix(v+".", wantVersion+".") {
				problems = append(problems, fmt.Sprintf("file version %s, want %s", v, wantVersion))
			}
			if name := versionString(r.data, "ProductName"); name != "" {
				fmt.Fprintln(out, "product:  ", name)
			}
		}
	}
	return problems, nil
}

// importedDLLs lists the DLLs of "symbol:DLL" strings once each, sorted.
func importedDLLs(syms []string) []string {
	seen := map[string]bool{}
	var libs []string
	for _, s := range syms {
		i := strings.LastIndexByte(s, ':')
		if i < 0 {
			continue
		}
		l := s[i+1:]
		if k := strings.ToLower(l); !seen[k] {
			seen[k] = true
			libs = append(libs, l)
		}
	}
	sort.Slice(libs, func(i, j int) bool { return strings.ToLower(libs[i]) < strings.ToLower(libs[j]) })
	return libs
}

func sectionAt(f *pe.File, rva uint32) *pe.Section {
	for _, s := range f.Sections {
		size := s.VirtualSize
		if size == 0 {
			size = s.Size
		}
		if rva >= s.VirtualAddress && rva < s.VirtualAddress+size {
			return s
		}
	}
	return nil
}

// parseResources walks the three-level resource tree (type, name, language)
// in rsrc, the resource section from the directory's start; base is that
// start's RVA, which data entries are relative to.
func parseResources(rsrc []byte, base uint32) ([]resource, error) {
	var out []resource
	var walk func(off uint32, depth int, typ uint32) error
	walk = func(off uint32, depth int, typ uint32) error {
		if depth > 3 {
			return errors.New("resource tree deeper than 3 levels")
		}
		if int(off)+16 > len(rsrc) {
			return fmt.Errorf("directory at %#x outside the section", off)
		}
		n := int(binary.LittleEndian.Uint16(rsrc[off+12:])) + int(binary.LittleEndian.Uint16(rsrc[off+14:]))
		for i := 0; i < n; i++ {
			e := int(off) + 16 + 8*i
			if e+8 > len(rsrc) {
				return errors.New("directory entry outside the section")
			}
			name := binary.LittleEndian.Uint32(rsrc[e:])
			target := binary.LittleEndian.Uint32(rsrc[e+4:])
			t := typ
			if depth == 0 {
				if name&0x80000000 != 0 {
					t = 0 // a named type: none we look for
				} else {
					t = name
				}
			}
			if target&0x80000000 != 0 {
				if err := walk(target&0x7fffffff, depth+1, t); err != nil {
					return err
				}
				continue
			}
			if int(target)+16 > len(rsrc) {
				return errors.New("data entry outside the section")
			}
			rva := binary.LittleEndian.Uint32(rsrc[target:])
			size := binary.LittleEndian.Uint32(rsrc[target+4:])
			if rva < base || uint64(rva-base)+uint64(size) > uint64(len(rsrc)) {
				return fmt.Errorf("resource data at RVA %#x (%d bytes) outside the section", rva, size)
			}
			out = append(out, resource{typ: t, data: rsrc[rva-base : rva-base+size]})
		}
		return nil
	}
	return out, walk(0, 0, 0)
}

// groupIconSizes lists the sizes a GRPICONDIR names, e.g. "256x256".
func groupIconSizes(b []byte) ([]string, error) {
	if len(b) < 6 || binary.LittleEndian.Uint16(b[2:]) != 1 {
		return nil, errors.New("not an icon group")
	}
	n := int(binary.LittleEndian.Uint16(b[4:]))
	if n == 0 || len(b) < 6+14*n {
		return nil, fmt.Errorf("%d entries in %d bytes", n, len(b))
	}
	var sizes []string
	for i := 0; i < n; i++ {
		w, h := int(b[6+14*i]), int(b[7+14*i])
		if w == 0 {
			w = 256
		}
		if h == 0 {
			h = 256
		}
		sizes = append(sizes, fmt.Sprintf("%dx%d", w, h))
	}
	sort.Strings(sizes)
	return sizes, nil
}

// fixedFileVersion reads FileVersion from the VS_FIXEDFILEINFO inside a
// VS_VERSIONINFO resource.
func fixedFileVersion(b []byte) (string, error) {
	i := indexSignature(b)
	if i < 0 || i+16 > len(b) {
		return "", errors.New("no VS_FIXEDFILEINFO")
	}
	ms := binary.LittleEndian.Uint32(b[i+8:])
	ls := binary.LittleEndian.Uint32(b[i+12:])
	return fmt.Sprintf("%d.%d.%d.%d", ms>>16, ms&0xffff, ls>>16, ls&0xffff), nil
}

func indexSignature(b []byte) int {
	for i := 0; i+4 <= len(b); i += 4 { // the structure is 32-bit aligned
		if binary.LittleEndian.Uint32(b[i:]) == 0xFEEF04BD {
			return i
		}
	}
	return -1
}

// versionString finds a StringFileInfo value by key, the cheap way: the key
// in UTF-16, NUL, padding to 32 bits, then the value up to its NUL.
func versionString(b []byte, key string) string {
	k := utf16le(key + "\x00")
	for i := 0; i+len(k) <= len(b); i += 2 {
		if string(b[i:i+len(k)]) != string(k) {
			continue
		}
		j := i + len(k)
		j += (4 - j%4) % 4
		var r []rune
		for ; j+2 <= len(b); j += 2 {
			c := binary.LittleEndian.Uint16(b[j:])
			if c == 0 {
				return string(r)
			}
			r = append(r, rune(c))
		}
		return ""
	}
	return ""
}

func utf16le(s string) []byte {
	var out []byte
	for _, c := range s {
		out = append(out, byte(c), byte(c>>8))
	}
	return out
}
