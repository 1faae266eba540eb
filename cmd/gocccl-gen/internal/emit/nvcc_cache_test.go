package emit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain keeps the tests out of the user's compile cache: every test
// runs with $GOCCCL_CACHE set to a fresh temporary directory unless it sets
// its own. A test binary started as a cache helper process (see
// TestCacheTwoProcesses) does that work instead.
func TestMain(m *testing.M) {
	if os.Getenv("GOCCCL_CACHE_HELPER") != "" {
		os.Exit(cacheHelper())
	}
	dir, err := os.MkdirTemp("", "gocccl-cache-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(CacheEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// testCache opens a cache in a new temporary directory with the given limit.
func testCache(t *testing.T, max string) *Cache {
	t.Helper()
	t.Setenv(CacheEnv, t.TempDir())
	t.Setenv(CacheMaxEnv, max)
	c, err := OpenCache()
	require.NoError(t, err)
	require.NotNil(t, c)
	return c
}

func TestOpenCache(t *testing.T) {
	t.Setenv(CacheEnv, "off")
	c, err := OpenCache()
	require.NoError(t, err)
	assert.Nil(t, c, "off disables the cache")

	t.Setenv(CacheEnv, "relative/dir")
	_, err = OpenCache()
	assert.ErrorContains(t, err, "absolute path")

	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	t.Setenv(CacheEnv, filepath.Join(file, "sub"))
	_, err = OpenCache()
	assert.ErrorContains(t, err, "compile cache")

	dir := t.TempDir()
	t.Setenv(CacheEnv, dir)
	c, err = OpenCache()
	require.NoError(t, err)
	assert.Equal(t, dir, c.Dir())
	assert.Equal(t, int64(DefaultCacheMax), c.max)

	// Without $GOCCCL_CACHE a test binary (this one) has no cache, so that
	// no test of any package writes into the user's cache.
	t.Setenv(CacheEnv, "")
	c, err = OpenCache()
	require.NoError(t, err)
	assert.Nil(t, c)
}

func TestCacheMax(t *testing.T) {
	for in, want := range map[string]int64{
		"": DefaultCacheMax, "0": 0, "4096": 4096, "512M": 512 << 20, "2G": 2 << 30,
		"2GiB": 2 << 30, "10 KB": 10 << 10, "1k": 1 << 10,
	} {
		t.Setenv(CacheMaxEnv, in)
		got, err := cacheMax()
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"lots", "-1", "1T", "1.5G", "99999999999G"} {
		t.Setenv(CacheMaxEnv, in)
		_, err := cacheMax()
		assert.ErrorContains(t, err, CacheMaxEnv, in)
	}
}

func TestCacheGetPut(t *testing.T) {
	c := testCache(t, "")
	key := strings.Repeat("ab", 32)
	_, ok := c.Get(key)
	assert.False(t, ok, "empty cache")
	require.NoError(t, c.Put(key, []byte("image")))
	got, ok := c.Get(key)
	require.True(t, ok)
	assert.Equal(t, "image", string(got))
	require.NoError(t, c.Put(key, []byte("")))
	got, ok = c.Get(key)
	require.True(t, ok, "an empty image is an entry too")
	assert.Empty(t, got)
	entries, err := os.ReadDir(filepath.Dir(c.path(key)))
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file left behind")
}

// TestCacheCorruption damages entries in every way a reader could meet
// them: each is a miss, is removed, and the next Put replaces it.
func TestCacheCorruption(t *testing.T) {
	c := testCache(t, "")
	data := []byte("a compiled image")
	for name, damage := range map[string]func([]byte) []byte{
		"truncated":    func(b []byte) []byte { return b[:len(b)-3] },
		"extended":     func(b []byte) []byte { return append(b, 'x') },
		"flipped":      func(b []byte) []byte { b[len(b)-1] ^= 1; return b },
		"no header":    func(b []byte) []byte { return data },
		"empty":        func(b []byte) []byte { return nil },
		"header only":  func(b []byte) []byte { return b[:bytes.IndexByte(b, '\n')] },
		"other format": func(b []byte) []byte { return append([]byte("gocccl-cache v0 "), b[len(entryMagic):]...) },
	} {
		t.Run(name, func(t *testing.T) {
			key := sha256Hex([]byte(name))
			require.NoError(t, c.Put(key, data))
			b, err := os.ReadFile(c.path(key))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(c.path(key), damage(b), 0o644))
			_, ok := c.Get(key)
			assert.False(t, ok)
			assert.NoFileExists(t, c.path(key), "a damaged entry is removed")
			require.NoError(t, c.Put(key, data))
			got, ok := c.Get(key)
			require.True(t, ok)
			assert.Equal(t, data, got)
		})
	}
}

// TestCacheTrim fills a cache past its limit: the least recently used
// entries go, a recent hit keeps an old entry, and stale temporary files
// are removed.
func TestCacheTrim(t *testing.T) {
	c := testCache(t, "10K")
	data := bytes.Repeat([]byte{7}, 2400) // 4 entries fit in 10 KiB with headers, 5 do not
	keys := make([]string, 6)
	base := time.Now().Add(-time.Hour)
	for i := range keys {
		keys[i] = sha256Hex([]byte{byte(i)})
		require.NoError(t, c.Put(keys[i], data))
		at := base.Add(time.Duration(i) * time.Minute)
		require.NoError(t, os.Chtimes(c.path(keys[i]), at, at))
	}
	_, ok := c.Get(keys[0]) // the oldest is used again
	require.True(t, ok)
	stale := filepath.Join(filepath.Dir(c.path(keys[0])), ".tmp-crashed")
	require.NoError(t, os.WriteFile(stale, data, 0o644))
	old := time.Now().Add(-2 * staleTemp)
	require.NoError(t, os.Chtimes(stale, old, old))
	fresh := filepath.Join(filepath.Dir(c.path(keys[1])), ".tmp-writing")
	require.NoError(t, os.WriteFile(fresh, data, 0o644))

	require.NoError(t, c.Trim())
	var kept []int
	for i, k := range keys {
		if _, err := os.Stat(c.path(k)); err == nil {
			kept = append(kept, i)
		}
	}
	assert.Equal(t, []int{0, 3, 4, 5}, kept, "the two least recently used are evicted")
	assert.NoFileExists(t, stale)
	assert.FileExists(t, fresh, "a temporary file being written is left alone")

	// A limit of zero keeps nothing.
	c.max = 0
	require.NoError(t, c.Trim())
	for _, k := range keys {
		assert.NoFileExists(t, c.path(k))
	}
}

// TestCacheConcurrent has many goroutines store and read the same keys: no
// reader ever sees anything but the whole data.
func TestCacheConcurrent(t *testing.T) {
	c := testCache(t, "")
	const workers, rounds, nkeys = 16, 50, 4
	payload := func(k int) []byte { return bytes.Repeat([]byte{byte('a' + k)}, 64<<10) }
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				k := (w + r) % nkeys
				key := sha256Hex([]byte{byte(k)})
				if err := c.Put(key, payload(k)); err != nil {
					errs <- err
					return
				}
				if got, ok := c.Get(key); ok && !bytes.Equal(got, payload(k)) {
					errs <- fmt.Errorf("key %d: read %d bytes of something else", k, len(got))
					return
				}
				if r%10 == 0 {
					c.Trim()
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for k := range nkeys {
		got, ok := c.Get(sha256Hex([]byte{byte(k)}))
		require.True(t, ok)
		assert.Equal(t, payload(k), got)
	}
}

// cacheHelper is the body of a helper process: it stores and reads the
// keys of TestCacheTwoProcesses many times and exits 1 on a bad read.
func cacheHelper() int {
	c, err := OpenCache()
	if err != nil || c == nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		return 1
	}
	for r := range 200 {
		k := r % 4
		key := sha256Hex([]byte{byte(k)})
		want := bytes.Repeat([]byte{byte('a' + k)}, 32<<10)
		if err := c.Put(key, want); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if got, ok := c.Get(key); ok && !bytes.Equal(got, want) {
			fmt.Fprintln(os.Stderr, "bad read of key", k)
			return 1
		}
		if r%25 == 0 {
			c.Trim()
		}
	}
	return 0
}

// TestCacheTwoProcesses runs two processes that store, read and trim the
// same entries at once, as two go generate runs would.
func TestCacheTwoProcesses(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	require.NoError(t, err)
	cmds := make([]*exec.Cmd, 3)
	outs := make([]*bytes.Buffer, len(cmds))
	for i := range cmds {
		cmds[i] = exec.Command(exe, "-test.run=^$")
		cmds[i].Env = append(os.Environ(), "GOCCCL_CACHE_HELPER=1", CacheEnv+"="+dir, CacheMaxEnv+"=100K")
		outs[i] = new(bytes.Buffer)
		cmds[i].Stdout, cmds[i].Stderr = outs[i], outs[i]
		require.NoError(t, cmds[i].Start())
	}
	for i, cmd := range cmds {
		assert.NoError(t, cmd.Wait(), "helper %d: %s", i, outs[i])
	}
}

// TestGenerateUsesCache generates the same kernels in two fresh
// directories: the second takes every image from the cache and runs no
// nvcc; with the cache off, or another nvcc, it compiles again.
func TestGenerateUsesCache(t *testing.T) {
	nvcc, log := fakeNVCC(t, true)
	testCache(t, "")
	ctx := context.Background()
	targets := []Target{{Arch: 80}, {Arch: 90}, {Arch: 90, PTX: true}}
	gen := func(nvcc string) *Output {
		pkg := reducePkg()
		pkg.Dir = t.TempDir()
		out, err := Generate(ctx, pkg, Options{NVCC: nvcc, Targets: targets})
		require.NoError(t, err)
		return out
	}
	// nvcc runs once per architecture for the PTX and, for SASS, once per
	// part (the model's three instances): runs(archs, sass).
	runs := func(archs, sass int) int { return archs + 3*sass }
	cold := gen(nvcc)
	assert.Empty(t, cold.Cached)
	assert.Equal(t, runs(2, 2), compileCount(t, log))

	warm := gen(nvcc)
	assert.Equal(t, targets, warm.Cached)
	assert.Equal(t, runs(2, 2), compileCount(t, log), "nvcc ran despite a warm cache")
	assert.Equal(t, cold.Files, warm.Files, "cached images give the same files")

	// One new target: only it is compiled.
	targets = append(targets, Target{Arch: 75})
	partial := gen(nvcc)
	assert.Len(t, partial.Cached, 3)
	assert.Equal(t, runs(2, 2)+runs(1, 1), compileCount(t, log))

	// Another nvcc (another path, or a different --version) has its own
	// entries.
	other, otherLog := fakeNVCC(t, true)
	gen(other)
	assert.Equal(t, runs(3, 3), compileCount(t, otherLog))

	t.Setenv(CacheEnv, "off")
	off := gen(nvcc)
	assert.Empty(t, off.Cached)
	assert.Equal(t, runs(2, 2)+runs(1, 1)+runs(3, 3), compileCount(t, log))
}

// TestCacheKey checks that every input of an image changes its key.
func TestCacheKey(t *testing.T) {
	tc := &Toolchain{Path: "/usr/bin/nvcc", Version: "11.8", VersionText: "release 11.8, V11.8.89"}
	cu := []byte("__global__ void k() {}")
	headers := []File{{Name: "include/a.cuh", Data: []byte("a")}}
	parts := [][]string{{"k"}}
	base := cacheKey(tc, cu, headers, Target{Arch: 80}, parts)
	assert.Len(t, base, 64)
	assert.Equal(t, base, cacheKey(tc, cu, headers, Target{Arch: 80}, parts))
	other := *tc
	other.VersionText = "release 11.8, V11.8.90"
	moved := *tc
	moved.Path = "/opt/cuda/bin/nvcc"
	for name, key := range map[string]string{
		"source":  cacheKey(tc, []byte("__global__ void k2() {}"), headers, Target{Arch: 80}, parts),
		"header":  cacheKey(tc, cu, []File{{Name: "include/a.cuh", Data: []byte("b")}}, Target{Arch: 80}, parts),
		"path":    cacheKey(tc, cu, []File{{Name: "include/b.cuh", Data: []byte("a")}}, Target{Arch: 80}, parts),
		"target":  cacheKey(tc, cu, headers, Target{Arch: 90}, parts),
		"ptx":     cacheKey(tc, cu, headers, Target{Arch: 80, PTX: true}, parts),
		"version": cacheKey(&other, cu, headers, Target{Arch: 80}, parts),
		"nvcc":    cacheKey(&moved, cu, headers, Target{Arch: 80}, parts),
		"parts":   cacheKey(tc, cu, headers, Target{Arch: 80}, [][]string{{"k"}, {"j"}}),
	} {
		assert.NotEqual(t, base, key, name)
	}
}
