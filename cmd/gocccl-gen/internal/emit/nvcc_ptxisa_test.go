package emit

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestImagesPTXISA(t *testing.T) {
	images := map[Target]*artifact{
		{Arch: 90}:             {data: []byte(".version 9.9\n")}, // SASS is not read
		{Arch: 75, PTX: true}:  {data: []byte("//\n// Cuda compilation tools, release 13.0\n\n.version 9.0\n.target sm_75\n")},
		{Arch: 120, PTX: true}: {data: []byte(".version 9.0\n.target sm_120\n")},
	}
	assert.Equal(t, "9.0", imagesPTXISA(images))
	images[Target{Arch: 80, PTX: true}] = &artifact{data: []byte(".version 10.1\n")}
	assert.Equal(t, "10.1", imagesPTXISA(images))
	assert.Equal(t, "", imagesPTXISA(map[Target]*artifact{{Arch: 90}: {data: []byte("\x7fELF")}}))
}

func TestGluePTXISA(t *testing.T) {
	m := &Manifest{Targets: []Target{{Arch: 90}, {Arch: 120, PTX: true}}, InputHash: "h"}
	glue, err := GoGlue(reducePkg(), m)
	require.NoError(t, err)
	assert.NotContains(t, string(glue), "PTXISA", "not recorded: nothing written")

	m.PTXISA = "9.0"
	glue, err = GoGlue(reducePkg(), m)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(glue), `PTXISA: "9.0"`), "only the PTX image records it:\n%s", glue)
}
