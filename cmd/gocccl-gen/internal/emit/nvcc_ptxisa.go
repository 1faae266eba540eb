package emit

import "github.com/gocccl/gocccl/internal/ptxisa"

// imagesPTXISA returns the highest PTX ISA version that the PTX images
// declare ("9.0" for nvcc 13.0), for the manifest and the glue; "" when there
// is no PTX image.
func imagesPTXISA(images map[Target]*artifact) string {
	var best ptxisa.Version
	found := false
	for t, a := range images {
		if !t.PTX {
			continue
		}
		if v, ok := ptxisa.Parse(a.data); ok && (!found || v.Major > best.Major || v.Major == best.Major && v.Minor > best.Minor) {
			best, found = v, true
		}
	}
	if !found {
		return ""
	}
	return best.String()
}
