// Command structure prints the figures the layout of package app is judged
// by: methods and fields of its types, the files that depend on tab.go,
// the files that import rpcconn, and the go statements with where each is
// joined. Run from the repository root:
//
//	go run ./scripts/structure            # package app
//	go run ./scripts/structure ./model    # another package
//
// It type-checks the package (without its tests) from the export data that
// `go list -export` builds, so every figure names real uses, not text.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

type listed struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	Deps       []string
}

func main() {
	pkg := "./app"
	if len(os.Args) > 1 {
		pkg = os.Args[1]
	}
	if err := run(pkg, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "structure:", err)
		os.Exit(1)
	}
}

func run(pkg string, out io.Writer) error {
	target, exports, err := goList(pkg)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range target.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(target.Dir, name), nil, parser.ParseComments)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if p, ok := exports[path]; ok && p != "" {
			return os.Open(p)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	})
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	conf := types.Config{Importer: imp, FakeImportC: true, Error: func(error) {}}
	tpkg, _ := conf.Check(target.ImportPath, fset, files, info)

	typeFigures(out, tpkg)
	dependents(out, fset, files, info, "tab.go")
	importers(out, fset, files, "knightcode.ai/desktop/rpcconn")
	goStatements(out, fset, files)
	return nil
}

// goList lists pkg and its dependencies with their export data.
func goList(pkg string) (listed, map[string]string, error) {
	cmd := exec.Command("go", "list", "-tags", "migrated_fynedo", "-export", "-deps", "-json", pkg)
	cmd.Stderr = os.Stderr
	raw, err := cmd.Output()
	if err != nil {
		return listed{}, nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	exports := map[string]string{}
	var last listed
	for dec.More() {
		var l listed
		if err := dec.Decode(&l); err != nil {
			return listed{}, nil, err
		}
		exports[l.ImportPath] = l.Export
		last = l // -deps lists the package itself last
	}
	return last, exports, nil
}

// typeFigures prints each struct type's methods and fields, most methods
// first.
func typeFigures(out io.Writer, pkg *types.Package) {
	type row struct {
		name            string
		methods, fields int
	}
	var rows []row
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		st, ok := named.Underlying().(*types.Struct)
		if !ok {
			continue
		}
		rows = append(rows, row{name, named.NumMethods(), st.NumFields()})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].methods != rows[j].methods {
			return rows[i].methods > rows[j].methods
		}
		return rows[i].name < rows[j].name
	})
	fmt.Fprintf(out, "# %s: struct types by methods (top 15 of %d)\n", pkg.Path(), len(rows))
	for i, r := range rows {
		if i == 15 {
			break
		}
		fmt.Fprintf(out, "%-24s methods %3d  fields %3d\n", r.name, r.methods, r.fields)
	}
}

// dependents prints how many of the other files use something declared in
// the file named base.
func dependents(out io.Writer, fset *token.FileSet, files []*ast.File, info *types.Info, base string) {
	declaredIn := func(obj types.Object) bool {
		return obj != nil && obj.Pos().IsValid() && filepath.Base(fset.Position(obj.Pos()).Filename) == base
	}
	var users []string
	others := 0
	for _, f := range files {
		name := filepath.Base(fset.Position(f.Pos()).Filename)
		if name == base {
			continue
		}
		others++
		uses := false
		ast.Inspect(f, func(n ast.Node) bool {
			if uses {
				return false
			}
			switch n := n.(type) {
			case *ast.Ident:
				uses = declaredIn(info.Uses[n])
			case *ast.SelectorExpr:
				if s := info.Selections[n]; s != nil {
					uses = declaredIn(s.Obj())
				}
			}
			return true
		})
		if uses {
			users = append(users, name)
		}
	}
	sort.Strings(users)
	fmt.Fprintf(out, "# files using what %s declares: %d of %d others\n  %s\n", base, len(users), others, strings.Join(users, " "))
}

// importers prints the files importing path.
func importers(out io.Writer, fset *token.FileSet, files []*ast.File, path string) {
	var names []string
	for _, f := range files {
		for _, s := range f.Imports {
			if strings.Trim(s.Path.Value, `"`) == path {
				names = append(names, filepath.Base(fset.Position(f.Pos()).Filename))
			}
		}
	}
	sort.Strings(names)
	fmt.Fprintf(out, "# files importing %s: %d\n  %s\n", path, len(names), strings.Join(names, " "))
}

// goStatements prints each go statement with the function it is in.
func goStatements(out io.Writer, fset *token.FileSet, files []*ast.File) {
	var lines []string
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if g, ok := n.(*ast.GoStmt); ok {
					p := fset.Position(g.Pos())
					lines = append(lines, fmt.Sprintf("%s:%d in %s", filepath.Base(p.Filename), p.Line, fd.Name.Name))
				}
				return true
			})
		}
	}
	fmt.Fprintf(out, "# go statements: %d\n", len(lines))
	for _, l := range lines {
		fmt.Fprintln(out, "  "+l)
	}
}
