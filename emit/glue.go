package emit

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/gocccl/gocccl/model"
)

// runtimePath is the import path of the package generated glue calls.
const runtimePath = "github.com/gocccl/gocccl/runtime"

// GoGlue returns the contents of gocccl_gen.go: a //go:embed variable per
// image of m.Targets, and an init function that creates the package's
// runtime.Module (with m.InputHash) and registers the kernels of every
// instance, in Key order, with the launch policy of each architecture.
func GoGlue(pkg *model.Package, m *Manifest) ([]byte, error) {
	if m == nil || len(m.Targets) == 0 {
		return nil, errors.New(GoFile + ": no targets")
	}
	targets := normalizeTargets(m.Targets)
	f := jen.NewFilePathName(pkg.Path, pkg.Name)
	f.HeaderComment(Header)
	f.HeaderComment("//go:build !" + model.AnalyzeTag)
	f.ImportName(runtimePath, "runtime")
	f.Anon("embed")

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
			jen.Id("Target").Op(":").Qual(runtimePath, "Target").Values(target...),
			jen.Id("Data").Op(":").Id(name),
		}
		if t.PTX && m.PTXISA != "" {
			fields = append(fields, jen.Id("PTXISA").Op(":").Lit(m.PTXISA))
		}
		images[i] = jen.Values(fields...)
	}
	f.Comment("Images compiled from " + CUDAFile + ", one per target (see " + ManifestFile + ").")
	f.Var().Defs(imageVars...)

	mod := freeName("m", taken)
	body := []jen.Code{
		jen.Id(mod).Op(":=").Qual(runtimePath, "NewModule").Call(
			jen.Lit(pkg.Path), jen.Lit(m.InputHash),
			jen.Index().Qual(runtimePath, "Image").Custom(multi, images...),
		),
	}
	as := archs(targets)
	for _, in := range pkg.Instances {
		reg, err := registration(pkg, in, as, mod)
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

// registration returns the statements that register one instance.
func registration(pkg *model.Package, in *model.Instance, as []int, mod string) ([]jen.Code, error) {
	if len(in.Ops) != 1 {
		return nil, fmt.Errorf("%s: want one operator", in.Key())
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
	policyList := jen.Id("Policies").Op(":").Index().Qual(runtimePath, "Policy").Custom(multi, policies...)
	layouts := make([]jen.Code, len(in.Types))
	for i, t := range in.Types {
		layouts[i] = jen.Lit(t.Layout())
	}
	layoutList := jen.Id("Layouts").Op(":").Index().String().Values(layouts...)
	sym := in.Symbol()
	var fn string
	var kernels jen.Code
	switch in.Algorithm {
	case model.Reduce:
		fn = "RegisterReduce"
		kernels = jen.Qual(runtimePath, "ReduceKernels").Custom(multi,
			jen.Id("Partial").Op(":").Lit(sym+"_partial"),
			jen.Id("Final").Op(":").Lit(sym+"_final"),
			policyList,
			layoutList,
		)
	case model.UnaryTransform, model.BinaryTransform:
		fn = "Register" + in.Algorithm.String()
		kernels = jen.Qual(runtimePath, "TransformKernels").Custom(multi,
			jen.Id("Entry").Op(":").Lit(sym),
			policyList,
			layoutList,
		)
	default:
		return nil, fmt.Errorf("%s: unsupported algorithm", in.Key())
	}
	comment := in.Key() + " over " + typeList(in.Types) + "."
	if p := goPos(pkg.Fset, in.Pos); p != "" {
		comment = in.Key() + " over " + typeList(in.Types) + ", declared at " + p + "."
	}
	return []jen.Code{
		jen.Comment(comment),
		jen.Qual(runtimePath, fn).Call(jen.Id(mod), opValue(pkg, in.Ops[0]), kernels),
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
