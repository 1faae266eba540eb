package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestGoStyleFlags(t *testing.T) {
	require.Equal(t,
		[]string{"--arch", "sm_80,sm_90", "--tags=a,b", "--nvcc", "/x/nvcc", "./pkg", "check", "-h"},
		goStyleFlags([]string{"-arch", "sm_80,sm_90", "-tags=a,b", "-nvcc", "/x/nvcc", "./pkg", "check", "-h"}))
	require.Equal(t, []string{"--arch=sm_90", "--", "-arch"}, goStyleFlags([]string{"-arch=sm_90", "--", "-arch"}))
	require.Equal(t, []string{"--arch", "-architecture"}, goStyleFlags([]string{"--arch", "-architecture"}))
}
