package cfg

// Linking several translation units into one program (BuildFiles,
// chorus check --link).
//
// cc translates one unit at a time (cc.Translate of several sources is
// one unit: their statics would clash and their macros leak into each
// other), so each file is translated on its own, with the same
// configuration, and the builder lowers from all the ASTs at once, as the
// linker sees them:
//   - Names with external linkage are one entity across units: a call of
//     f in a.c reaches the definition of f in b.c (inlined, shared, or as
//     a thread function of pthread_create); a global's declarations
//     (extern, tentative definitions, the definition) are one object
//     whose type is the most complete one.
//   - Names with internal linkage (static at file scope, in any
//     declaration of the unit) are per unit: they are renamed name@unit,
//     where unit is the file's base name (its index when two files share
//     a base name).
//   - Two definitions of one external function, or two initialized
//     definitions of one external variable, are an error ("multiple
//     definitions", as ld says); inline definitions may repeat.
//   - A block-scope declaration is resolved by its own linkage: an
//     extern declaration inside a function names the external entity.
//   - Each unit's code keeps its own view of the types: an access through
//     `extern int a[];` in one unit has no bounds check even when another
//     unit defines `int a[8];` (checks are for arrays whose length the
//     access's type knows), and structs of the same tag in two units are
//     laid out per unit (they must agree, as C requires of compatible
//     types).

import (
	"fmt"
	"path/filepath"
	"strings"

	"modernc.org/cc/v4"
)

// indexUnits records, per unit, its file-scope declarators and the names
// it gives internal linkage.
func (b *builder) indexUnits() {
	b.unitOf = map[*cc.Declarator]int{}
	b.internal = make([]map[string]bool, len(b.asts))
	base := map[string]int{}
	for _, f := range b.unitFiles {
		base[filepath.Base(f)]++
	}
	for u, ast := range b.asts {
		b.internal[u] = map[string]bool{}
		name := fmt.Sprint(u)
		if u < len(b.unitFiles) {
			name = filepath.Base(b.unitFiles[u])
			if base[name] > 1 {
				name = fmt.Sprintf("%s#%d", name, u)
			}
		}
		b.unitNames = append(b.unitNames, name)
		for l := ast.TranslationUnit; l != nil; l = l.TranslationUnit {
			ed := l.ExternalDeclaration
			if ed == nil {
				continue
			}
			switch ed.Case {
			case cc.ExternalDeclarationFuncDef:
				d := ed.FunctionDefinition.Declarator
				b.unitOf[d] = u
				if d.IsStatic() {
					b.internal[u][d.Name()] = true
				}
			case cc.ExternalDeclarationDecl:
				for idl := ed.Declaration.InitDeclaratorList; idl != nil; idl = idl.InitDeclaratorList {
					d := idl.InitDeclarator.Declarator
					if d == nil || d.IsTypename() {
						continue
					}
					b.unitOf[d] = u
					if d.IsStatic() {
						b.internal[u][d.Name()] = true
					}
				}
			}
		}
	}
}

// lname is the linker name of a file-scope (or extern) declarator: its
// name, renamed name@unit when it has internal linkage and the program
// has several units.
func (b *builder) lname(d *cc.Declarator) string {
	name := d.Name()
	if len(b.asts) < 2 {
		return name
	}
	u, ok := b.unitOf[d]
	if !ok {
		return name // block scope: a local extern declaration names the external entity
	}
	if b.internal[u][name] {
		return name + "@" + b.unitNames[u]
	}
	return name
}

// LinkedName is the name of a program made of several files (the
// Program.File of BuildFiles): the files joined by " + ".
func LinkedName(files []string) string { return strings.Join(files, LinkSep) }

// LinkSep separates the files of a linked program's name.
const LinkSep = " + "

// SplitLinked splits a linked program's name into its files.
func SplitLinked(name string) []string { return strings.Split(name, LinkSep) }

// BuildFiles lowers the translation units at paths as one program, as the
// linker would combine them (see the comment at the top of link.go).
func BuildFiles(paths []string, opts Options) (*Program, error) {
	all := make([]Options, len(paths))
	for i := range all {
		all[i] = opts
	}
	return BuildLinked(paths, all)
}

// BuildLinked is BuildFiles with each file's own preprocessor options
// (a compile database's flags); the program's options (data model,
// entries, budgets) are those of the first.
func BuildLinked(paths []string, opts []Options) (*Program, error) {
	if len(paths) == 0 || len(opts) != len(paths) {
		return nil, &Error{Msg: "no input files"}
	}
	if len(paths) == 1 {
		return BuildFile(paths[0], opts[0])
	}
	var asts []*cc.AST
	for i, p := range paths {
		o := opts[i]
		o.DataModel = opts[0].DataModel
		ast, err := translateFile(p, nil, o)
		if err != nil {
			return nil, err
		}
		asts = append(asts, ast)
	}
	return lowerUnits(LinkedName(paths), paths, asts, opts[0])
}
