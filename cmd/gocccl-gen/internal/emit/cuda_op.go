package emit

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
)

// gosem qualifies the helpers of kernels/include/gocccl/gosem.cuh.
const gosem = "::gocccl::go::"

// opEmitter translates the operators of one package into C++ functions.
type opEmitter struct {
	w     *cWriter
	pkg   *model.Package
	ns    string    // the package namespace
	names *cNames   // C++ names of operators and variables
	err   error     // the first error, with its Go position
	tmp   int       // counter for temporaries within an operator
	op    *model.Op // the operator being written
	flow  *flow     // its loops and switches
	// gpuNaN is set while op's NaN twin is written (cuda_nantwin.go): float
	// arithmetic as C++ operators, with the GPU's NaNs.
	gpuNaN bool
}

// fail records the first translation error at pos and returns a placeholder
// so that translation can go on without checking at every step.
func (e *opEmitter) fail(pos token.Pos, format string, args ...any) string {
	if e.err == nil {
		msg := fmt.Sprintf(format, args...)
		if p := goPos(e.pkg.Fset, pos); p != "" {
			msg = p + ": " + msg
		}
		e.err = fmt.Errorf("%s", msg)
	}
	return "/* error */"
}

// signature returns the C++ declaration of an operator without a body:
// "__device__ __forceinline__ float Add(float a, float b)". An operator with
// several results returns its results struct (see writeResults).
func (e *opEmitter) signature(op *model.Op) string {
	return e.signatureNamed(op, e.names.ops[op])
}

// signatureNamed is signature with the function called name.
func (e *opEmitter) signatureNamed(op *model.Op, name string) string {
	if len(op.Results) == 0 {
		e.fail(op.Pos, "operator %s has no results", op.Name)
		return ""
	}
	params := make([]string, len(op.Params))
	for i, p := range op.Params {
		params[i] = cType(p.Type) + " " + e.paramName(op, i)
	}
	return fmt.Sprintf("__device__ __forceinline__ %s %s(%s)", e.resultType(op), name, strings.Join(params, ", "))
}

// resultType returns the C++ type an operator returns.
func (e *opEmitter) resultType(op *model.Op) string {
	if len(op.Results) == 1 {
		return cType(op.Results[0])
	}
	return resultsName(e, op)
}

// paramName returns the C++ name of parameter i; unnamed and blank
// parameters have a name of their own (see nameVars).
func (e *opEmitter) paramName(op *model.Op, i int) string {
	return e.varName(op.Params[i])
}

// varName returns a variable's C++ name (see nameVars).
func (e *opEmitter) varName(v *model.Var) string {
	if v == nil {
		return e.fail(token.NoPos, "nil variable")
	}
	name, ok := e.names.vars[v]
	if !ok {
		return e.fail(v.Pos, "variable %s is neither a parameter of the operator nor declared in it", v.Name)
	}
	return name
}

// function writes an operator as a C++ function with its doc comment.
func (e *opEmitter) function(op *model.Op) {
	w := e.w
	if p := goPos(e.pkg.Fset, op.Pos); p != "" && op.Pkg != "" && op.Pkg != e.pkg.Path {
		w.p("// %s is %s in package %s.", op.Name, p, op.Pkg)
	} else if p != "" {
		w.p("// %s is %s.", op.Name, p)
	} else {
		w.p("// %s is a //gocccl:op operator.", op.Name)
	}
	if op.FastMath {
		w.p("// fastmath: x*y + z in float arithmetic is fused into one multiply-add, and NaN results are the GPU's.")
	}
	e.definition(op, e.names.ops[op])
}

// definition writes op's signature, as a function called name, and its body.
func (e *opEmitter) definition(op *model.Op, name string) {
	e.tmp = 0
	e.op = op
	w := e.w
	prev := w.setPos(goPos(e.pkg.Fset, op.Pos))
	w.p("%s {", e.signatureNamed(op, name))
	w.in()
	if op.Body == nil {
		e.fail(op.Pos, "operator %s: no body", op.Name)
	} else {
		e.flow = planFlow(op.Body)
		e.stmts(op, op.Body.Stmts)
		if n := len(op.Body.Stmts); n == 0 || !isReturn(op.Body.Stmts[n-1]) {
			// Go proved the end unreachable (a terminating statement).
			w.p("__builtin_unreachable();")
		}
	}
	w.out()
	w.p("}")
	w.setPos(prev)
}

// stmts writes a statement list.
func (e *opEmitter) stmts(op *model.Op, list []model.Stmt) {
	for _, s := range list {
		e.stmt(op, s)
	}
}

// stmt writes one statement, recording its Go position for its lines.
func (e *opEmitter) stmt(op *model.Op, s model.Stmt) {
	w := e.w
	prev := w.setPos(goPos(e.pkg.Fset, s.Position()))
	defer w.setPos(prev)
	switch s := s.(type) {
	case *model.Block:
		w.p("{")
		w.in()
		e.stmts(op, s.Stmts)
		w.out()
		w.p("}")
	case *model.DeclStmt:
		e.decl(s)
	case *model.AssignStmt:
		e.assign(s)
	case *model.IfStmt:
		if s.Init != nil {
			w.p("{")
			w.in()
			e.stmt(op, s.Init)
			e.ifChain(op, s, "if")
			w.out()
			w.p("}")
		} else {
			e.ifChain(op, s, "if")
		}
	case *model.ReturnStmt:
		e.returnStmt(op, s)
	case *model.ForStmt:
		e.forStmt(op, s)
	case *model.SwitchStmt:
		e.switchStmt(op, s)
	case *model.BranchStmt:
		e.branchStmt(s)
	case nil:
		e.fail(token.NoPos, "nil statement in %s", op.Name)
	default:
		e.fail(s.Position(), "unsupported statement %T", s)
	}
}

// isReturn reports whether s is a return statement.
func isReturn(s model.Stmt) bool {
	_, ok := s.(*model.ReturnStmt)
	return ok
}

// returnStmt writes a return of one value, of several (as the results
// struct), or of a call with as many results.
func (e *opEmitter) returnStmt(op *model.Op, s *model.ReturnStmt) {
	w := e.w
	switch {
	case len(op.Results) == 1 && len(s.Results) == 1:
		e.sameType(s.Pos, op.Results[0], s.Results[0].Type(), "return value")
		w.p("return %s;", e.top(s.Results[0]))
	case len(op.Results) > 1 && len(s.Results) == len(op.Results):
		vals := make([]string, len(s.Results))
		for i, r := range s.Results {
			e.sameType(s.Pos, op.Results[i], r.Type(), "return value")
			vals[i] = e.top(r)
		}
		w.p("return %s{%s};", resultsName(e, op), strings.Join(vals, ", "))
	case len(op.Results) > 1 && len(s.Results) == 1:
		t := s.Results[0].Type()
		if t.Kind != model.Tuple || len(t.Elems) != len(op.Results) {
			e.fail(s.Pos, "return of %s from an operator with %d results", t.GoName(), len(op.Results))
			return
		}
		tmp := e.temp()
		vals := make([]string, len(op.Results))
		for i := range vals {
			e.sameType(s.Pos, op.Results[i], t.Elems[i], "return value")
			vals[i] = fmt.Sprintf("%s.r%d", tmp, i)
		}
		w.p("{")
		w.in()
		w.p("const auto %s = %s;", tmp, e.top(s.Results[0]))
		w.p("return %s{%s};", resultsName(e, op), strings.Join(vals, ", "))
		w.out()
		w.p("}")
	default:
		e.fail(s.Pos, "return with %d values from an operator with %d results", len(s.Results), len(op.Results))
	}
}

// ifChain writes "if (c) {…} else if (c) {…} else {…}"; an else-if with an
// init statement opens a block of its own.
func (e *opEmitter) ifChain(op *model.Op, s *model.IfStmt, keyword string) {
	w := e.w
	e.wantBool(s.Cond)
	w.p("%s (%s) {", keyword, e.top(s.Cond))
	w.in()
	if s.Then != nil {
		e.stmts(op, s.Then.Stmts)
	}
	w.out()
	switch els := s.Else.(type) {
	case nil:
		w.p("}")
	case *model.Block:
		w.p("} else {")
		w.in()
		e.stmts(op, els.Stmts)
		w.out()
		w.p("}")
	case *model.IfStmt:
		if els.Init == nil {
			prev := w.setPos(goPos(e.pkg.Fset, els.Pos))
			e.ifChain(op, els, "} else if")
			w.setPos(prev)
			return
		}
		// The else block is the scope of the init statement.
		prev := w.setPos(goPos(e.pkg.Fset, els.Pos))
		w.p("} else {")
		w.in()
		e.stmt(op, els.Init)
		e.ifChain(op, els, "if")
		w.out()
		w.p("}")
		w.setPos(prev)
	default:
		e.fail(s.Pos, "else branch is %T; want a block or an if statement", els)
	}
}

// decl writes a local variable declaration; a nil Init is Go's zero value.
func (e *opEmitter) decl(s *model.DeclStmt) {
	if s.Var == nil {
		e.fail(s.Pos, "declaration without a variable")
		return
	}
	if s.Var.Name == "_" {
		if s.Init != nil {
			e.w.p("(void)(%s);", e.top(s.Init))
		}
		return
	}
	name := e.varName(s.Var)
	if s.Init == nil {
		e.w.p("%s %s{};", cType(s.Var.Type), name)
		return
	}
	e.sameType(s.Pos, s.Var.Type, s.Init.Type(), "initial value of "+s.Var.Name)
	e.w.p("%s %s = %s;", cType(s.Var.Type), name, e.top(s.Init))
}

// assign writes a tuple assignment. With more than one target, the index
// operands of the targets and then every value are first evaluated into
// temporaries, as Go evaluates all of them before assigning any.
func (e *opEmitter) assign(s *model.AssignStmt) {
	w := e.w
	if len(s.Values) == 1 && len(s.Targets) > 1 {
		e.assignTuple(s)
		return
	}
	if len(s.Targets) != len(s.Values) || len(s.Targets) == 0 {
		e.fail(s.Pos, "assignment of %d values to %d targets", len(s.Values), len(s.Targets))
		return
	}
	for i, t := range s.Targets {
		if t != nil {
			e.sameType(s.Pos, t.Type(), s.Values[i].Type(), "value assigned to "+e.lvalue(t))
		}
	}
	if len(s.Targets) == 1 {
		if s.Targets[0] == nil {
			w.p("(void)(%s);", e.top(s.Values[0]))
		} else {
			w.p("%s = %s;", e.lvalue(s.Targets[0]), e.top(s.Values[0]))
		}
		return
	}
	w.p("{")
	w.in()
	targets := e.pinTargets(s.Targets)
	tmps := make([]string, len(s.Values))
	for i, v := range s.Values {
		tmps[i] = e.temp()
		w.p("const %s %s = %s;", cType(v.Type()), tmps[i], e.top(v))
	}
	for i, t := range targets {
		if t == "" {
			w.p("(void)%s;", tmps[i])
		} else {
			w.p("%s = %s;", t, tmps[i])
		}
	}
	w.out()
	w.p("}")
}

// assignTuple writes "a, b = f(x)": the call's results land in a
// temporary, then go to the targets in order.
func (e *opEmitter) assignTuple(s *model.AssignStmt) {
	w := e.w
	val := s.Values[0]
	vt := val.Type()
	if vt == nil || vt.Kind != model.Tuple || len(vt.Elems) != len(s.Targets) {
		e.fail(s.Pos, "assignment of one value to %d targets", len(s.Targets))
		return
	}
	w.p("{")
	w.in()
	targets := e.pinTargets(s.Targets)
	tmp := e.temp()
	w.p("const auto %s = %s;", tmp, e.top(val))
	for i, t := range targets {
		if t == "" {
			continue
		}
		e.sameType(s.Pos, s.Targets[i].Type(), vt.Elems[i], "value assigned to "+e.lvalue(s.Targets[i]))
		w.p("%s = %s.r%d;", t, tmp, i)
	}
	w.out()
	w.p("}")
}

// pinTargets evaluates the non-constant index operands of assignment
// targets into temporaries, in order, and returns the targets as printed
// with them ("" for the blank identifier).
func (e *opEmitter) pinTargets(targets []model.Expr) []string {
	out := make([]string, len(targets))
	for i, t := range targets {
		if t != nil {
			out[i] = e.lvalueWith(t, true)
		}
	}
	return out
}

// temp returns a fresh temporary name.
func (e *opEmitter) temp() string {
	name := fmt.Sprintf("gocccl_t%d", e.tmp)
	e.tmp++
	return name
}

// lvalue prints an assignment target.
func (e *opEmitter) lvalue(t model.Expr) string { return e.lvalueWith(t, false) }

// lvalueWith prints an assignment target; with pin set, it first writes a
// temporary for every index that is not a constant and uses it.
func (e *opEmitter) lvalueWith(t model.Expr, pin bool) string {
	switch t := t.(type) {
	case *model.VarRef:
		return e.varName(t.Var)
	case *model.Selector:
		return e.lvalueWith(t.X, pin) + "." + e.fieldName(t)
	case *model.Index:
		base := e.lvalueWith(t.X, pin)
		idx := e.top(t.Index)
		if _, isConst := t.Index.(*model.Const); pin && !isConst {
			tmp := e.temp()
			e.w.p("const %s %s = %s;", cType(t.Index.Type()), tmp, idx)
			idx = tmp
		}
		return fmt.Sprintf("%sref(%s, %s)", gosem, base, idx)
	case nil:
		return e.fail(token.NoPos, "nil assignment target")
	}
	return e.fail(t.Position(), "cannot assign to %T", t)
}

// sameType checks that a value of type got can be stored where want is
// expected without a C++ implicit conversion (Go has none).
func (e *opEmitter) sameType(pos token.Pos, want, got *model.Type, what string) {
	if want == nil || got == nil {
		e.fail(pos, "%s: missing type", what)
		return
	}
	if want.Kind != got.Kind && cType(want) != cType(got) {
		e.fail(pos, "%s: type %s, want %s", what, got.GoName(), want.GoName())
	}
}

// wantBool checks that a condition is boolean.
func (e *opEmitter) wantBool(x model.Expr) {
	if x == nil || x.Type() == nil || !x.Type().IsBool() {
		pos := token.NoPos
		if x != nil {
			pos = x.Position()
		}
		e.fail(pos, "condition is not a bool")
	}
}

// top prints an expression at statement level, where it needs no
// parentheses.
func (e *opEmitter) top(x model.Expr) string {
	s, _ := e.expr(x)
	return s
}

// operand prints an expression used as an operand of an operator:
// parenthesized unless it is atomic (a name, a call, a literal).
func (e *opEmitter) operand(x model.Expr) string {
	s, compound := e.expr(x)
	if compound {
		return "(" + s + ")"
	}
	return s
}

// expr prints an expression. compound reports that it is an infix or prefix
// operation that needs parentheses when used as an operand.
func (e *opEmitter) expr(x model.Expr) (s string, compound bool) {
	switch x := x.(type) {
	case *model.VarRef:
		return e.varName(x.Var), false
	case *model.Const:
		if x.T == nil || x.Value == nil {
			return e.fail(x.Pos, "constant without a type or value"), false
		}
		s, prefix, err := cConst(x.Value, x.T)
		if err != nil {
			return e.fail(x.Pos, "%v", err), false
		}
		return s, prefix
	case *model.Unary:
		return e.unary(x)
	case *model.Binary:
		return e.binary(x)
	case *model.Convert:
		return e.convert(x)
	case *model.Call:
		return e.call(x), false
	case *model.Intrinsic:
		return e.intrinsic(x)
	case *model.Selector:
		return e.operand(x.X) + "." + e.fieldName(x), false
	case *model.Index:
		return fmt.Sprintf("%sat(%s, %s)", gosem, e.top(x.X), e.top(x.Index)), false
	case *model.Composite:
		return e.composite(x), false
	case nil:
		return e.fail(token.NoPos, "nil expression"), false
	}
	return e.fail(x.Position(), "unsupported expression %T", x), false
}

// unary prints -x, !x and ^x with Go's meaning.
func (e *opEmitter) unary(x *model.Unary) (string, bool) {
	t := x.X.Type()
	switch {
	case x.Op == model.Neg && t.IsInteger():
		return gosem + "neg(" + e.top(x.X) + ")", false
	case x.Op == model.Neg && t.IsFloat():
		// Go flips the sign bit alone; C++'s - may canonicalize a NaN.
		return gosem + "fneg(" + e.top(x.X) + ")", false
	case x.Op == model.Neg && t.IsComplex():
		return gosem + "cneg(" + e.top(x.X) + ")", false
	case x.Op == model.Not && t.IsBool():
		return "!" + e.operand(x.X), true
	case x.Op == model.BitNot && t.IsInteger():
		return gosem + "bnot(" + e.top(x.X) + ")", false
	}
	return e.fail(x.Pos, "unary operator %d on %s", x.Op, t.GoName()), false
}

// intHelpers names the gosem.cuh helper of each integer operator.
var intHelpers = map[model.BinaryOp]string{
	model.Add: "add", model.Sub: "sub", model.Mul: "mul", model.Quo: "quo", model.Rem: "rem",
	model.And: "band", model.Or: "bor", model.Xor: "bxor", model.AndNot: "band_not",
	model.Shl: "shl", model.Shr: "shr",
}

// floatHelpers names the gosem.cuh helper of each float operator: the IEEE
// operation with the NaN that Go returns on amd64.
var floatHelpers = map[model.BinaryOp]string{
	model.Add: "fadd", model.Sub: "fsub", model.Mul: "fmul", model.Quo: "fquo",
}

// complexHelpers names the gocomplex.cuh helper of each complex operator:
// gc's arithmetic (complex128div for /), also in fastmath operators. == and
// != are the structs' C++ operators.
var complexHelpers = map[model.BinaryOp]string{
	model.Add: "cadd", model.Sub: "csub", model.Mul: "cmul", model.Quo: "cquo",
}

// binary prints a binary operation: integer arithmetic, bit operations,
// shifts and float arithmetic through gosem.cuh (float arithmetic as C++
// operators in a fastmath operator), comparisons and logical operators as
// C++ operators.
func (e *opEmitter) binary(x *model.Binary) (string, bool) {
	if x.X == nil || x.Y == nil {
		return e.fail(x.Pos, "binary %s with a missing operand", x.Op), false
	}
	tx, ty := x.X.Type(), x.Y.Type()
	switch {
	case x.Op == model.Shl || x.Op == model.Shr:
		if !tx.IsInteger() || !ty.IsInteger() {
			return e.fail(x.Pos, "shift %s %s %s: operands must be integers", tx.GoName(), x.Op, ty.GoName()), false
		}
		return fmt.Sprintf("%s%s(%s, %s)", gosem, intHelpers[x.Op], e.top(x.X), e.top(x.Y)), false
	case tx.Kind != ty.Kind && cType(tx) != cType(ty):
		return e.fail(x.Pos, "operands of %s have types %s and %s", x.Op, tx.GoName(), ty.GoName()), false
	case x.Op == model.LAnd || x.Op == model.LOr:
		if !tx.IsBool() {
			return e.fail(x.Pos, "operands of %s must be bool, not %s", x.Op, tx.GoName()), false
		}
		return e.operand(x.X) + " " + x.Op.String() + " " + e.operand(x.Y), true
	case x.Op.IsComparison():
		return e.operand(x.X) + " " + x.Op.String() + " " + e.operand(x.Y), true
	case tx.IsInteger():
		h, ok := intHelpers[x.Op]
		if !ok {
			break
		}
		return fmt.Sprintf("%s%s(%s, %s)", gosem, h, e.top(x.X), e.top(x.Y)), false
	case tx.IsComplex():
		h, ok := complexHelpers[x.Op]
		if !ok {
			break
		}
		return fmt.Sprintf("%s%s(%s, %s)", gosem, h, e.top(x.X), e.top(x.Y)), false
	case tx.IsFloat():
		if s, ok := e.fused(x); ok {
			return s, false
		}
		h, ok := floatHelpers[x.Op]
		if !ok {
			break
		}
		if e.gpuNaN || e.op != nil && e.op.FastMath {
			// fastmath and NaN twins keep the GPU's canonical NaN.
			return e.operand(x.X) + " " + x.Op.String() + " " + e.operand(x.Y), true
		}
		return fmt.Sprintf("%s%s<%s>(%s, %s)", gosem, h, cType(tx), e.top(x.X), e.top(x.Y)), false
	}
	return e.fail(x.Pos, "operator %s on %s is not supported", x.Op, tx.GoName()), false
}

// convert prints the conversion T(x) with Go's result. A conversion that
// is no operation in C++ (bool to bool, a named type over the same kind, int
// and int64) prints x alone, so it is compound exactly when x is: dropping
// the conversion must not drop the grouping it gave x.
func (e *opEmitter) convert(x *model.Convert) (string, bool) {
	from, to := x.X.Type(), x.T
	switch {
	case from.Kind == model.Array && to.Kind == model.Array && cType(from) == cType(to):
		return e.expr(x.X) // a named array type and its array type: one C++ type
	case from.Kind == model.Struct && to.Kind == model.Struct:
		return e.structConversion(x), false
	case from.IsBool() && to.IsBool():
		return e.expr(x.X)
	case from.IsBool() || to.IsBool():
		return e.fail(x.Pos, "cannot convert %s to %s", from.GoName(), to.GoName()), false
	case from.IsComplex() && to.IsComplex():
		if from.Kind == to.Kind {
			return e.expr(x.X) // a named type over the same kind
		}
		return fmt.Sprintf("%scconv<%s>(%s)", gosem, cType(to), e.top(x.X)), false
	case from.IsHalf() || to.IsHalf():
		switch {
		case from.Kind == to.Kind:
			return e.expr(x.X)
		case from.IsHalf() && to.Kind == model.Uint16:
			return "::gocccl::go::half::bits(" + e.top(x.X) + ")", false
		case to.IsHalf() && from.Kind == model.Uint16:
			return fmt.Sprintf("%s{%s}", cType(to), e.top(x.X)), false
		}
		return e.fail(x.Pos, "cannot convert %s to %s", from.GoName(), to.GoName()), false
	case !from.IsNumeric() || !to.IsNumeric():
		return e.fail(x.Pos, "unsupported conversion from %s to %s", from.GoName(), to.GoName()), false
	case from.Kind == to.Kind,
		cType(from) == cType(to) && from.IsInteger() == to.IsInteger():
		return e.expr(x.X) // a named type, or int ↔ int64: the same representation
	}
	return fmt.Sprintf("%sconv<%s>(%s)", gosem, cType(to), e.top(x.X)), false
}

// call prints a call of an operator of this package or another, qualified
// so that no local name can hide it. A call whose single argument is a call
// with several results unpacks them in a lambda.
func (e *opEmitter) call(x *model.Call) string {
	name, ok := e.names.ops[x.Op]
	if x.Op == nil || !ok {
		return e.fail(x.Pos, "call of an operator that is neither a //gocccl:op of package %s nor imported", e.pkg.Name)
	}
	fn := fmt.Sprintf("::%s::%s", cNamespace(opPkg(e.pkg, x.Op)), name)
	if len(x.Args) == 1 && len(x.Op.Params) > 1 {
		t := x.Args[0].Type()
		if t.Kind != model.Tuple || len(t.Elems) != len(x.Op.Params) {
			return e.fail(x.Pos, "call of %s with one argument of type %s", x.Op.Name, t.GoName())
		}
		tmp := e.temp()
		args := make([]string, len(t.Elems))
		for i := range args {
			e.sameType(x.Pos, x.Op.Params[i].Type, t.Elems[i], fmt.Sprintf("argument %d of %s", i+1, x.Op.Name))
			args[i] = fmt.Sprintf("%s.r%d", tmp, i)
		}
		return fmt.Sprintf("[&] { const auto %s = %s; return %s(%s); }()", tmp, e.top(x.Args[0]), fn, strings.Join(args, ", "))
	}
	if len(x.Args) != len(x.Op.Params) {
		return e.fail(x.Pos, "call of %s with %d arguments, want %d", x.Op.Name, len(x.Args), len(x.Op.Params))
	}
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		e.sameType(x.Pos, x.Op.Params[i].Type, a.Type(), fmt.Sprintf("argument %d of %s", i+1, x.Op.Name))
		args[i] = e.top(a)
	}
	return fmt.Sprintf("%s(%s)", fn, strings.Join(args, ", "))
}

// composite prints a struct or array value as a C++ aggregate: T{a, b} and
// array<T, N>{{a, b}}; a missing element is its type's zero value.
func (e *opEmitter) composite(x *model.Composite) string {
	if x.T == nil || !x.T.IsComposite() {
		return e.fail(x.Pos, "composite literal of type %s", typeString(x.T))
	}
	elems := make([]string, len(x.Elems))
	for i, el := range x.Elems {
		var want *model.Type
		if x.T.Kind == model.Struct {
			if i >= len(x.T.Fields) {
				return e.fail(x.Pos, "too many fields in %s literal", x.T.GoName())
			}
			want = x.T.Fields[i].Type
		} else {
			want = x.T.Elem
		}
		if el == nil {
			elems[i] = cType(want) + "{}"
			continue
		}
		e.sameType(x.Pos, want, el.Type(), "element of "+x.T.GoName())
		elems[i] = e.top(el)
	}
	if x.T.Kind == model.Array {
		return fmt.Sprintf("%s{{%s}}", cType(x.T), strings.Join(elems, ", "))
	}
	return fmt.Sprintf("%s{%s}", cType(x.T), strings.Join(elems, ", "))
}

// fieldName returns the C++ name of the field x selects.
func (e *opEmitter) fieldName(x *model.Selector) string {
	t := x.X.Type()
	if t == nil || t.Kind != model.Struct || x.Field < 0 || x.Field >= len(t.Fields) {
		return e.fail(x.Pos, "selection of field %d of %s", x.Field, typeString(t))
	}
	return cField(t.Fields[x.Field].Name, x.Field)
}

// typeString returns t's Go name, or "nil" for a missing type.
func typeString(t *model.Type) string {
	if t == nil {
		return "nil"
	}
	return t.GoName()
}

// fused prints x*y + z, z + x*y, x*y - z and z - x*y as one fused
// multiply-add in a fastmath operator; ok is false for anything else.
func (e *opEmitter) fused(x *model.Binary) (string, bool) {
	if e.op == nil || !e.op.FastMath || (x.Op != model.Add && x.Op != model.Sub) {
		return "", false
	}
	fma := "fma"
	if x.T.Kind == model.Float32 {
		fma = "fmaf"
	}
	product := func(v model.Expr) (*model.Binary, bool) {
		m, ok := v.(*model.Binary)
		return m, ok && m.Op == model.Mul && m.T.Kind == x.T.Kind
	}
	if m, ok := product(x.X); ok {
		z := e.top(x.Y)
		if x.Op == model.Sub {
			z = "-" + e.operand(x.Y)
		}
		return fmt.Sprintf("::%s(%s, %s, %s)", fma, e.top(m.X), e.top(m.Y), z), true
	}
	if m, ok := product(x.Y); ok {
		a := e.top(m.X)
		if x.Op == model.Sub {
			a = "-" + e.operand(m.X)
		}
		return fmt.Sprintf("::%s(%s, %s, %s)", fma, a, e.top(m.Y), e.top(x.X)), true
	}
	return "", false
}

// structConversion prints T(x) between struct types with identical
// fields: T{x.a, x.b, …}, with x evaluated once into a temporary unless it
// is a variable.
func (e *opEmitter) structConversion(x *model.Convert) string {
	from, to := x.X.Type(), x.T
	if len(from.Fields) != len(to.Fields) {
		return e.fail(x.Pos, "cannot convert %s to %s", from.GoName(), to.GoName())
	}
	src := e.operand(x.X)
	_, isVar := x.X.(*model.VarRef)
	if !isVar {
		src = e.temp()
	}
	fields := make([]string, len(to.Fields))
	for i, f := range to.Fields {
		if !from.Fields[i].Type.Identical(f.Type) {
			return e.fail(x.Pos, "cannot convert %s to %s: field %s differs", from.GoName(), to.GoName(), f.Name)
		}
		fields[i] = src + "." + cField(from.Fields[i].Name, i)
	}
	lit := fmt.Sprintf("%s{%s}", cType(to), strings.Join(fields, ", "))
	if isVar {
		return lit
	}
	return fmt.Sprintf("[&] { const auto %s = %s; return %s; }()", src, e.top(x.X), lit)
}
