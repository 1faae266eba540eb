package transformnm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gocccl/gocccl/conformance/devicetest/devcheck"
)

// TestGPUAllocations: an N×M transform on the GPU allocates nothing on the
// Go heap per call, for every arity this package declares over plain
// Slices (vectorized and per-item paths: 1- to 16-byte items and the
// 12-byte Item), and for a stateful one whose handle is bound once. Calls
// through iterator compositions resolve their binding per call and are not
// counted here. Without a GPU it skips.
func TestGPUAllocations(t *testing.T) {
	d := devcheck.OpenGPU(t)
	s, err := d.NewStream()
	require.NoError(t, err)
	defer s.Close()
	const n = 1<<20 + 3 // a partial tile too
	ones := make([]int32, n)
	for i := range ones {
		ones[i] = 1
	}
	var (
		i8, u8a, u8b = devcheck.Alloc[int8](t, d, n), devcheck.Alloc[uint8](t, d, n), devcheck.Alloc[uint8](t, d, n)
		u16          = devcheck.Alloc[uint16](t, d, n)
		i16          = devcheck.Alloc[int16](t, d, n)
		u32          = devcheck.Alloc[uint32](t, d, n)
		i32a, i32b   = devcheck.Alloc[int32](t, d, n), devcheck.Upload(t, d, ones) // no division by zero
		i64          = devcheck.Alloc[int64](t, d, n)
		u64          = devcheck.Alloc[uint64](t, d, n)
		fa, fb, fc   = devcheck.Alloc[float32](t, d, n), devcheck.Alloc[float32](t, d, n), devcheck.Alloc[float32](t, d, n)
		da, db, dc   = devcheck.Alloc[float64](t, d, n), devcheck.Alloc[float64](t, d, n), devcheck.Alloc[float64](t, d, n)
		items        = devcheck.Alloc[Item](t, d, n)

		oI8, oU8   = devcheck.Alloc[int8](t, d, n), devcheck.Alloc[uint8](t, d, n)
		oI16, oU16 = devcheck.Alloc[int16](t, d, n), devcheck.Alloc[uint16](t, d, n)
		oU32a      = devcheck.Alloc[uint32](t, d, n)
		oU32b      = devcheck.Alloc[uint32](t, d, n)
		oI32a      = devcheck.Alloc[int32](t, d, n)
		oI32b      = devcheck.Alloc[int32](t, d, n)
		oI64, oU64 = devcheck.Alloc[int64](t, d, n), devcheck.Alloc[uint64](t, d, n)
		oF32a      = devcheck.Alloc[float32](t, d, n)
		oF32b      = devcheck.Alloc[float32](t, d, n)
		oF32c      = devcheck.Alloc[float32](t, d, n)
		oF64a      = devcheck.Alloc[float64](t, d, n)
		oF64b      = devcheck.Alloc[float64](t, d, n)
		oF64c      = devcheck.Alloc[float64](t, d, n)
		oPair      = devcheck.Alloc[Pair](t, d, n)
		oItem      = devcheck.Alloc[Item](t, d, n)
	)
	blend := Transform3x2Blend.Bind(Blend{W: 0.25, Offset: -1}) // bound once: Bind makes a handle
	calls := []struct {
		name string
		run  func() error
	}{
		{"Transform3(Axpb)", func() error { return Transform3F32.Run(s, fa, fb, fc, oF32a) }},
		{"Transform4(Mix4)", func() error { return Transform4Mixed.Run(s, i8, u16, da, items, oF64a) }},
		{"Transform1x2(Split)", func() error { return Transform1x2U64.Run(s, u64, oU32a, oU32b) }},
		{"Transform2x2(DivMod)", func() error { return Transform2x2I32.Run(s, i32a, i32b, oI32a, oI32b) }},
		{"Transform3x2(Lerp2)", func() error { return Transform3x2F32.Run(s, fa, fb, fc, oF32a, oF32b) }},
		{"Transform4x2(Pack4)", func() error { return Transform4x2U8.Run(s, u8a, u8b, u16, u32, oU64, oU32a) }},
		{"Transform1x3(Spread3)", func() error { return Transform1x3U8.Run(s, u8a, oU8, oI16, oF32a) }},
		{"Transform2x3(Fan3)", func() error { return Transform2x3Fan.Run(s, i64, fa, oI8, oF64a, oPair) }},
		{"Transform3x3(Stats3)", func() error { return Transform3x3F64.Run(s, da, db, dc, oF64a, oF64b, oF64c) }},
		{"Transform4x3(Four3)", func() error { return Transform4x3Mix.Run(s, i32a, i64, fa, items, oI64, oF32c, oU16) }},
		{"Transform3x2(Weigh)", func() error { return Transform3x2Itm.Run(s, u32, fa, i16, oItem, oF64b) }},
		{"Transform3x2With(Blend.Apply)", func() error { return blend.Run(s, fa, fb, fc, oF32a, oF32b) }},
	}
	for _, c := range calls {
		devcheck.RequireNoAllocs(t, 50, c.name, c.run)
	}
	require.NoError(t, s.Synchronize())
}
