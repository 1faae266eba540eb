package emit

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/gocccl/gocccl/internal/iter"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// implPath is the import path of the package generated glue calls.
const implPath = "github.com/gocccl/gocccl/runtime/goccclimpl"

// glueVersion is the version of the glue this generator writes; the
// runtime accepts goccclimpl.MinVersion through goccclimpl.MaxVersion, and
// the glue checks that at compile time. Version 3 added per-call state,
// version 4 iterator compositions, each written only by packages that used
// them; version 5 records every image's sha256 (goccclimpl.Image.SHA256),
// which the runtime checks before it loads the image; version 6 splits
// every image into parts, one instance's kernels each
// (goccclimpl.Image.Parts, goccclimpl.Instance.Part), which the runtime
// loads one at a time, so every package's glue is version 6.
const glueVersion = 6

// packageGlueVersion is the glue version pkg's glue needs.
func packageGlueVersion(*model.Package) int { return glueVersion }

// GoGlue returns the contents of gocccl_gen.go: the version guard, a
// //go:embed variable per image of m.Targets, and an init function that
// creates the package's goccclimpl.Module (with m.InputHash) and registers
// the kernels of every instance, in Key order, with the launch policy of
// each architecture.
func GoGlue(pkg *model.Package, m *Manifest) ([]byte, error) {
	if m == nil || len(m.Targets) == 0 {
		return nil, errors.New(GoFile + ": no targets")
	}
	targets := normalizeTargets(m.Targets)
	f := jen.NewFilePathName(pkg.Path, pkg.Name)
	f.HeaderComment(Header)
	f.HeaderComment("//go:build !" + model.AnalyzeTag)
	f.ImportName(implPath, "goccclimpl")
	f.ImportName("reflect", "reflect")
	f.Anon("embed")

	version := packageGlueVersion(pkg)
	f.Comment("The glue is version " + fmt.Sprint(version) + "; it fails to compile against a runtime that")
	f.Comment("does not accept it, and the compiler's message names the fix.")
	f.Const().Defs(
		jen.Id("_").Op("=").Qual(implPath, "EnforceVersion_RunGoGenerate").Call(jen.Lit(version).Op("-").Qual(implPath, "MinVersion")),
		jen.Id("_").Op("=").Qual(implPath, "EnforceVersion_UpdateGocccl").Call(jen.Qual(implPath, "MaxVersion").Op("-").Lit(version)),
	)

	taken := make(map[string]bool, len(pkg.Ops))
	for _, op := range pkg.Ops {
		taken[op.Name] = true
	}
	imageVars := make([]jen.Code, len(targets))
	images := make([]jen.Code, len(targets))
	for i, t := range targets {
		name := imageVar(t)
		imageVars[i] = jen.Comment("//go:embed " + t.FileName()).Line().Id(name).Index().Byte()
		target := []jen.Code{jen.Id("Arch").Op(":").Lit(t.Arch)}
		if t.PTX {
			target = append(target, jen.Id("PTX").Op(":").True())
		}
		fields := []jen.Code{
			jen.Id("Target").Op(":").Qual(implPath, "Target").Values(target...),
			jen.Id("Data").Op(":").Id(name),
		}
		if t.PTX && m.PTXISA != "" {
			fields = append(fields, jen.Id("PTXISA").Op(":").Lit(m.PTXISA))
		}
		if h := m.FileSHA256(t.FileName()); h != "" {
			fields = append(fields, jen.Id("SHA256").Op(":").Lit(h))
		}
		if parts := m.FileParts(t.FileName()); len(parts) > 0 {
			offs := PartOffsets(parts)
			vals := make([]jen.Code, len(parts))
			for j, p := range parts {
				vals[j] = jen.Values(jen.Id("Offset").Op(":").Lit(offs[j]), jen.Id("Size").Op(":").Lit(p.Size),
					jen.Id("SHA256").Op(":").Lit(p.SHA256))
			}
			fields = append(fields, jen.Id("Parts").Op(":").Index().Qual(implPath, "Part").Custom(multi, vals...))
		}
		images[i] = jen.Custom(multi, fields...)
	}
	f.Comment("Images compiled from " + CUDAFile + ", one per target (see " + ManifestFile + ").")
	f.Var().Defs(imageVars...)

	mod := freeName("m", taken)
	body := []jen.Code{
		jen.Id(mod).Op(":=").Qual(implPath, "NewModule").Call(
			jen.Lit(pkg.Path), jen.Lit(m.InputHash),
			jen.Index().Qual(implPath, "Image").Custom(multi, images...),
		),
	}
	as := archs(targets)
	_, partOf := instanceParts(pkg)
	for i, in := range pkg.Instances {
		reg, err := registration(pkg, in, as, mod, partOf[i])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", GoFile, err)
		}
		body = append(body, reg...)
	}
	f.Func().Id("init").Params().Block(body...)

	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("%s: %w", GoFile, err)
	}
	return buf.Bytes(), nil
}

// multi renders a composite literal's elements one per line.
var multi = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// registration returns the statements that register one instance: its
// algorithm's name, operators, element types with their layouts, kernel
// entry points in the algorithm's order, the part of the images that holds
// them and the policy of each architecture.
func registration(pkg *model.Package, in *model.Instance, as []int, mod string, part int) ([]jen.Code, error) {
	if in.Algorithm == nil || len(in.Ops) != len(in.Algorithm.Ops) || len(in.Types) != len(in.Algorithm.TypeParams) {
		return nil, fmt.Errorf("%s: operators or element types do not fit the algorithm", in.Key())
	}
	policies := make([]jen.Code, len(as))
	for i, a := range as {
		p := instancePolicy(in, a)
		policies[i] = jen.Values(
			jen.Id("Arch").Op(":").Lit(a),
			jen.Id("BlockThreads").Op(":").Lit(p.BlockThreads),
			jen.Id("ItemsPerThread").Op(":").Lit(p.ItemsPerThread),
		)
	}
	ops := make([]jen.Code, len(in.Ops))
	for i, op := range in.Ops {
		ops[i] = opValue(pkg, op)
	}
	types := make([]jen.Code, len(in.Types))
	layouts := make([]jen.Code, len(in.Types))
	for i, t := range in.Types {
		types[i] = jen.Qual("reflect", "TypeFor").Types(goType(pkg, t)).Call()
		layouts[i] = jen.Lit(t.Layout())
	}
	sym := instanceSymbol(in)
	kernels := make([]jen.Code, len(in.Algorithm.Kernels))
	for i, k := range in.Algorithm.Kernels {
		kernels[i] = jen.Lit(k.Symbol(sym))
	}
	comment := in.Key() + " over " + typeList(in.Types) + "."
	if p := goPos(pkg.Fset, in.Pos); p != "" {
		comment = in.Key() + " over " + typeList(in.Types) + ", declared at " + p + "."
	}
	fields := []jen.Code{
		jen.Id("Algorithm").Op(":").Lit(in.Algorithm.Name),
		jen.Id("Ops").Op(":").Index().Any().Values(ops...),
		jen.Id("Types").Op(":").Index().Qual("reflect", "Type").Values(types...),
		jen.Id("Layouts").Op(":").Index().String().Values(layouts...),
		jen.Id("Kernels").Op(":").Index().String().Values(kernels...),
		jen.Id("Part").Op(":").Lit(part),
		jen.Id("Policies").Op(":").Index().Qual(implPath, "Policy").Custom(multi, policies...),
	}
	if in.HasIters() {
		fields = append(fields,
			jen.Id("Inputs").Op(":").Index().Op("*").Qual(implPath, "Iter").Custom(multi, iterValues(pkg, in.Inputs)...),
			jen.Id("Outputs").Op(":").Index().Op("*").Qual(implPath, "Iter").Custom(multi, iterValues(pkg, in.Outputs)...))
	}
	if in.State != nil {
		fields = append(fields,
			jen.Id("State").Op(":").Qual("reflect", "TypeFor").Types(goType(pkg, in.State)).Call(),
			jen.Id("StateLayout").Op(":").Lit(in.State.Layout()),
		)
	}
	return []jen.Code{
		jen.Comment(comment),
		jen.Qual(implPath, "Register").Call(jen.Id(mod), jen.Qual(implPath, "Instance").Custom(multi, fields...)),
	}, nil
}

// imageVar names the embedded variable of a target's image:
// goccclImageSM90, goccclImageCompute90.
func imageVar(t Target) string {
	if t.PTX {
		return fmt.Sprintf("goccclImageCompute%d", t.Arch)
	}
	return fmt.Sprintf("goccclImageSM%d", t.Arch)
}

// freeName returns base, or base with underscores appended, so that it is
// not in taken.
func freeName(base string, taken map[string]bool) string {
	for taken[base] {
		base += "_"
	}
	return base
}

// opValue refers to an operator from the package's glue: by name, or
// qualified by its package when another package declares it.
func opValue(pkg *model.Package, op *model.Op) jen.Code {
	if p := opPkg(pkg, op); p != pkg.Path {
		return jen.Qual(p, op.Name)
	}
	return jen.Id(op.Name)
}

// goType spells t in Go for the glue of pkg: a named type qualified by its
// package (bare in its own), an unnamed array by its length and element, a
// predeclared type by name.
func goType(pkg *model.Package, t *model.Type) jen.Code {
	switch {
	case t.Name != "" && t.Pkg != "" && t.Pkg != pkg.Path:
		return jen.Qual(t.Pkg, t.Name)
	case t.Name != "":
		return jen.Id(t.Name)
	case t.Kind == model.Array:
		return jen.Index(jen.Lit(int(t.Len))).Add(goType(pkg, t.Elem))
	case t.Kind == model.View:
		return jen.Qual("github.com/gocccl/gocccl/runtime", "View").Types(goType(pkg, t.Elem))
	}
	return jen.Id(t.Kind.String())
}

// iterValues spells compositions as goccclimpl.Iter literals (nil for a
// plain buffer), which the runtime keys the kernels by.
func iterValues(pkg *model.Package, its []*model.Iter) []jen.Code {
	vals := make([]jen.Code, len(its))
	for i, it := range its {
		if it == nil {
			vals[i] = jen.Nil()
			continue
		}
		vals[i] = jen.Op("&").Qual(implPath, "Iter").Values(iterFields(pkg, it)...)
	}
	return vals
}

func iterFields(pkg *model.Package, it *model.Iter) []jen.Code {
	fields := []jen.Code{
		jen.Id("Kind").Op(":").Qual(implPath, "Iter"+it.Kind.String()),
		jen.Id("Type").Op(":").Qual("reflect", "TypeFor").Types(goType(pkg, it.Type)).Call(),
	}
	if it.Op != nil {
		fields = append(fields, jen.Id("Op").Op(":").Add(opValue(pkg, it.Op)))
	}
	if it.Kind == iter.CacheModified {
		fields = append(fields, jen.Id("Mode").Op(":").Qual(implPath, "Cache"+it.Mode.String()))
	}
	if len(it.In) > 0 {
		subs := make([]jen.Code, len(it.In))
		for i, c := range it.In {
			subs[i] = jen.Values(iterFields(pkg, c)...)
		}
		fields = append(fields, jen.Id("In").Op(":").Index().Op("*").Qual(implPath, "Iter").Values(subs...))
	}
	return fields
}
