package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/emit"
	"github.com/gocccl/gocccl/internal/cuda"
	"github.com/gocccl/gocccl/internal/nccl"
	"github.com/gocccl/gocccl/internal/registry"
	"github.com/gocccl/gocccl/runtime"
)

func newDoctorCommand(stdout io.Writer) *cobra.Command {
	var nvcc string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Describe the CUDA toolchain, driver and GPUs this machine offers",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			doctor(ctx, stdout, nvcc)
			return nil
		},
	}
	cmd.Flags().StringVar(&nvcc, "nvcc", "", "path to nvcc")
	return cmd
}

// doctor reports what generation and execution would use here. Every
// missing piece is reported with the reason, never as a failure: a machine
// without a GPU still generates, and one without nvcc still runs.
func doctor(ctx context.Context, w io.Writer, nvcc string) {
	fmt.Fprintf(w, "gocccl-gen %s\n", versionLine())

	tc, err := emit.LoadToolchain(ctx, nvcc)
	if err != nil {
		fmt.Fprintf(w, "nvcc:    not found: %v\n", err)
		fmt.Fprintf(w, "         (generation needs nvcc; committed generated files build without it)\n")
	} else {
		describeToolchain(w, tc)
		if ts, err := tc.DefaultTargets(); err == nil {
			fmt.Fprintf(w, "targets: %s (default)\n", targetList(ts))
		} else {
			fmt.Fprintf(w, "targets: %v\n", err)
		}
	}

	describeNCCL(w)

	if err := cuda.Init(); err != nil {
		if v, verr := cuda.DriverVersion(); verr == nil {
			fmt.Fprintf(w, "driver:  CUDA %s%s\n", driverVersion(v), jitNote(tc, v))
		}
		fmt.Fprintf(w, "GPUs:    none: %v\n", err)
		fmt.Fprintf(w, "         (programs run on the CPU backend)\n")
		return
	}
	v, err := cuda.DriverVersion()
	if err != nil {
		fmt.Fprintf(w, "driver:  %v\n", err)
	} else {
		fmt.Fprintf(w, "driver:  CUDA %s%s\n", driverVersion(v), jitNote(tc, v))
	}
	n, err := cuda.DeviceCount()
	if err != nil {
		fmt.Fprintf(w, "GPUs:    none: %v\n", err)
		return
	}
	fmt.Fprintf(w, "GPUs:    %d\n", n)
	for i := 0; i < n; i++ {
		d, err := runtime.OpenGPU(i)
		if err != nil {
			fmt.Fprintf(w, "  %d: %v\n", i, err)
			continue
		}
		info := d.Info()
		fmt.Fprintf(w, "  %d: %s, compute capability %d.%d, %d SMs, %.1f GiB", i, info.Name, info.Major, info.Minor,
			info.Multiprocessors, float64(info.TotalMemory)/(1<<30))
		if tc != nil {
			if ts, err := tc.DefaultTargets(); err == nil {
				_, reason, err := registry.SelectImage(images(ts), info.Major, info.Minor)
				if err != nil {
					fmt.Fprintf(w, "; default targets: %v", err)
				} else {
					fmt.Fprintf(w, "; default targets run it as %s", reason)
				}
			}
		}
		fmt.Fprintln(w)
		d.Close()
	}
}

// describeNCCL reports the NCCL that groups of GPUs (runtime/group) would
// use, or where it was looked for.
func describeNCCL(w io.Writer) {
	path, err := nccl.Load()
	if err != nil {
		fmt.Fprintf(w, "NCCL:    %v\n", err)
		fmt.Fprintf(w, "         (only groups of GPUs need it; scripts/install-nccl.sh installs NVIDIA's wheel)\n")
		return
	}
	v, err := nccl.GetVersion()
	if err != nil {
		fmt.Fprintf(w, "NCCL:    %s: %v\n", path, err)
		return
	}
	fmt.Fprintf(w, "NCCL:    %s (%s)\n", v, path)
}

// describeToolchain reports which nvcc generation uses, why that one, its
// CUB or CCCL, and the drivers that can JIT the PTX it writes.
func describeToolchain(w io.Writer, tc *emit.Toolchain) {
	fmt.Fprintf(w, "nvcc:    %s (release %s)\n", tc.Path, tc.Version)
	fmt.Fprintf(w, "         found by %s\n", tc.Rule)
	switch {
	case tc.CUB == "":
		fmt.Fprintf(w, "CUB:     not found next to nvcc\n")
	case strings.HasPrefix(tc.CUB, "1."):
		fmt.Fprintf(w, "CUB:     %s (%s)\n", tc.CUB, tc.CUBHeader)
	default:
		fmt.Fprintf(w, "CCCL:    %s (%s)\n", tc.CUB, tc.CUBHeader)
	}
	fmt.Fprintf(w, "PTX:     drivers for CUDA %s or newer JIT the PTX it writes; SASS needs no JIT\n", tc.Version)
}

// images stands in for a generated module's images, to show which one a
// device would load.
func images(ts []emit.Target) []registry.Image {
	ims := make([]registry.Image, len(ts))
	for i, t := range ts {
		ims[i] = registry.Image{Target: t}
	}
	return ims
}

func targetList(ts []emit.Target) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

// jitNote warns when the driver, of CUDA version v (12080 for 12.8), is older
// than the nvcc that generation uses: it cannot JIT that nvcc's PTX.
func jitNote(tc *emit.Toolchain, v int) string {
	if tc == nil {
		return ""
	}
	var major, minor int
	if _, err := fmt.Sscanf(tc.Version, "%d.%d", &major, &minor); err != nil || v >= major*1000+minor*10 {
		return ""
	}
	return fmt.Sprintf(" (older than nvcc %s: it cannot JIT that nvcc's PTX, only its SASS loads)", tc.Version)
}

// driverVersion formats the driver's CUDA version, 12080 → "12.8".
func driverVersion(v int) string { return fmt.Sprintf("%d.%d", v/1000, v%1000/10) }
