package emit

import (
	"errors"
	"fmt"
	gofmt "go/format"

	"github.com/gocccl/gocccl/cmd/gocccl-gen/internal/model"
	"github.com/gocccl/gocccl/runtime/goccclimpl/opshash"
)

// opshashPath is the import path of the package the generated test calls.
const opshashPath = "github.com/gocccl/gocccl/runtime/goccclimpl/opshash"

// GoTest returns the contents of gocccl_gen_test.go: a test that fails,
// saying to run go generate, when the package's //gocccl:op operators or
// constants differ from those gocccl-gen compiled (opshash.Dir of the
// package directory, recorded here). It returns nil when pkg.Dir holds no
// Go file of the package (a model that was not loaded from files).
func GoTest(pkg *model.Package) ([]byte, error) {
	if pkg.Dir == "" {
		return nil, nil
	}
	hash, err := opshash.Dir(pkg.Dir, pkg.Name)
	if errors.Is(err, opshash.ErrNoSources) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: hashing the operators: %w", TestFile, err)
	}
	src := fmt.Sprintf(`// %s

package %s

import (
	"testing"

	"%s"
)

// TestGoccclGenerated fails when this package's //gocccl:op operators or
// constants were edited after gocccl-gen compiled them: the CPU backend
// would run the new Go code and a GPU the old kernels. Run go generate.
func TestGoccclGenerated(t *testing.T) {
	skip, err := opshash.Check(".", %q, %q)
	if skip {
		t.Skip("the package's sources are not in the working directory")
	}
	if err != nil {
		t.Fatal(err)
	}
}
`, Header, pkg.Name, opshashPath, pkg.Name, hash)
	return gofmt.Source([]byte(src))
}
