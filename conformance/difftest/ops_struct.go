package difftest

import "github.com/gocccl/gocccl/runtime"

// Structs: Go's layout on the device (padding between fields), nested
// structs, composite literals keyed and positional, zero values, field
// assignment, struct equality, structs as Reduce elements.

// Padded has 7 bytes of padding after A and 6 after C: 24 bytes.
type Padded struct {
	A int8
	B float64
	C int16
}

// Vec3 is three float32s: 12 bytes, alignment 4.
type Vec3 struct{ X, Y, Z float32 }

// Particle nests two Vec3s, then a float64 that needs 8-byte alignment, a
// bool and a uint16.
type Particle struct {
	Pos, Vel Vec3
	Mass     float64
	Alive    bool
	ID       uint16
}

// Pair is a uint32 and an int64 with padding between them.
type Pair struct {
	Lo uint32
	Hi int64
}

// Embedded embeds a Vec3: its fields are promoted.
type Embedded struct {
	Vec3
	W float32
}

// Blank has a blank field, which == ignores.
type Blank struct {
	A int32
	_ int32
	B float32
}

// V2 has the underlying type of Vec3: they convert into each other.
type V2 Vec3

//gocccl:op
func PaddedStep(p Padded) Padded {
	p.A++
	p.B = p.B * 2
	p.C = -p.C ^ int16(p.A)
	return p
}

//gocccl:op
func PaddedSum(p Padded) float64 { return float64(p.A) + p.B + float64(p.C) }

//gocccl:op
func Vec3Add(a, b Vec3) Vec3 { return Vec3{a.X + b.X, a.Y + b.Y, a.Z + b.Z} }

//gocccl:op
func Vec3Eq(a, b Vec3) bool { return a == b }

//gocccl:op
func ParticleStep(p Particle) Particle {
	if !p.Alive {
		return p
	}
	p.Pos.X += p.Vel.X
	p.Pos.Y += p.Vel.Y
	p.Pos.Z = p.Pos.Z + p.Vel.Z
	if p.Mass <= 0 {
		p.Alive = false
	}
	p.ID++
	return p
}

//gocccl:op
func MakePair(x int64) Pair {
	var q Pair
	if x < 0 {
		return q
	}
	return Pair{Hi: x >> 3, Lo: uint32(x)}
}

// Swizzle copies a struct and changes the copy: values, not references.
//
//gocccl:op
func Swizzle(v Vec3) Vec3 {
	w := v
	w.X, w.Y, w.Z = v.Z, v.X, v.Y
	v.X = 0
	return Vec3{X: w.X - v.X, Y: w.Y, Z: w.Z}
}

// CombinePair is associative and commutative: wrapping add and xor.
//
//gocccl:op
func CombinePair(a, b Pair) Pair { return Pair{Lo: a.Lo + b.Lo, Hi: a.Hi ^ b.Hi} }

//gocccl:op
func EmbedSum(e Embedded) float32 { return e.X + e.Vec3.Y + e.Z*e.W }

//gocccl:op
func BlankEq(a, b Blank) bool { return a == b }

//gocccl:op
func ConvStruct(v Vec3) V2 {
	w := V2(v)
	w.X = -w.X
	return w
}

var (
	_ = runtime.UnaryTransform(EmbedSum)
	_ = runtime.BinaryTransform(BlankEq)
	_ = runtime.UnaryTransform(ConvStruct)
	_ = runtime.UnaryTransform(PaddedStep)
	_ = runtime.UnaryTransform(PaddedSum)
	_ = runtime.BinaryTransform(Vec3Add)
	_ = runtime.BinaryTransform(Vec3Eq)
	_ = runtime.UnaryTransform(ParticleStep)
	_ = runtime.UnaryTransform(MakePair)
	_ = runtime.UnaryTransform(Swizzle)
	_ = runtime.Reduce(CombinePair)
)
