package emit

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The compile cache keeps the image of every nvcc run, addressed by the
// sha256 of everything that determines it (see cacheKey), so that unchanged
// inputs skip nvcc even in a fresh checkout, another directory or another
// package with the same kernels.
//
// Entries are files <dir>/v1/<2 hex>/<64 hex>: a header line
// "gocccl-cache v1 <sha256 of data> <len(data)>\n", then the data. They are
// written to a temporary file in the same directory and renamed into place,
// so a reader sees a whole entry or none; a reader still checks length and
// hash, and removes an entry that does not match (a damaged disk, a file
// edited by hand) so that the next compile replaces it. A hit sets the
// entry's modification time, and after storing, the cache is trimmed to its
// size limit by removing the least recently used entries.
const (
	// CacheEnv names the cache directory; "off" disables the cache. The
	// default is os.UserCacheDir()/gocccl.
	CacheEnv = "GOCCCL_CACHE"
	// CacheMaxEnv bounds the cache's size in bytes, with an optional
	// suffix K, M or G (powers of 1024, "KiB" and "KB" spellings too).
	CacheMaxEnv = "GOCCCL_CACHE_MAX"
	// DefaultCacheMax is the size limit without $GOCCCL_CACHE_MAX: 1 GiB.
	DefaultCacheMax = 1 << 30
)

// cacheVersion is the layout and key version; a change of either starts an
// empty tree beside the old one. v2: an entry is an artifact of parts
// (encodeArtifact); v3: compiled through the spill guard, with a JSON
// header that lists what it relaxed. A change to what a part holds
// (splitPTX, joinParts, the spill guard) must bump it, and InputHash's
// marker with it.
const cacheVersion = "v3"

// staleTemp is how old a temporary file must be before trim removes it: a
// writer that crashed between create and rename left it.
const staleTemp = time.Hour

// Cache is the compile cache in one directory.
type Cache struct {
	dir string // holds cacheVersion/
	max int64  // size limit in bytes
}

// OpenCache opens the compile cache the environment selects: $GOCCCL_CACHE,
// else os.UserCacheDir()/gocccl. It returns nil, and no error, when
// $GOCCCL_CACHE is "off", when there is no user cache directory, and in a
// test binary without $GOCCCL_CACHE (so that tests never fill the user's
// cache); an
// explicit $GOCCCL_CACHE that cannot be created, or a malformed
// $GOCCCL_CACHE_MAX, is an error.
func OpenCache() (*Cache, error) {
	max, err := cacheMax()
	if err != nil {
		return nil, err
	}
	dir := os.Getenv(CacheEnv)
	switch {
	case dir == "off":
		return nil, nil
	case dir == "" && testing.Testing():
		return nil, nil // a test binary never writes into the user's cache
	case dir == "":
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, nil // no home: no cache, as with the cache off
		}
		dir = filepath.Join(base, "gocccl")
	case !filepath.IsAbs(dir):
		return nil, fmt.Errorf("$%s=%s: want an absolute path or \"off\"", CacheEnv, dir)
	}
	if err := os.MkdirAll(filepath.Join(dir, cacheVersion), 0o755); err != nil {
		return nil, fmt.Errorf("compile cache: %w", err)
	}
	return &Cache{dir: dir, max: max}, nil
}

// cacheMax parses $GOCCCL_CACHE_MAX.
func cacheMax() (int64, error) {
	s := strings.TrimSpace(os.Getenv(CacheMaxEnv))
	if s == "" {
		return DefaultCacheMax, nil
	}
	num, mult := strings.ToUpper(s), int64(1)
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		for _, sp := range []string{u.suffix + "IB", u.suffix + "B", u.suffix} {
			if strings.HasSuffix(num, sp) {
				num, mult = strings.TrimSpace(strings.TrimSuffix(num, sp)), u.mult
				break
			}
		}
		if mult != 1 {
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("$%s=%s: want a size in bytes such as 1073741824, 512M or 2G", CacheMaxEnv, s)
	}
	return n * mult, nil
}

// Dir returns the cache's directory.
func (c *Cache) Dir() string { return c.dir }

// cacheKey returns the hex sha256 over what determines the image of one
// target: the nvcc executable's path and its full --version text (which
// names its build), the CUDA source, every header (path and contents), the
// common, path and the target's flags, the target, and the kernels of each
// part.
func cacheKey(tc *Toolchain, cu []byte, headers []File, t Target, parts [][]string) string {
	h := sha256.New()
	item := func(kind string, data []byte) {
		fmt.Fprintf(h, "%s %d\n", kind, len(data))
		h.Write(data)
	}
	io.WriteString(h, "gocccl-gen cache "+cacheVersion+"\n")
	item("nvcc", []byte(tc.Path))
	item("nvcc-version", []byte(tc.VersionText))
	item("cu", cu)
	hs := append([]File(nil), headers...)
	sort.Slice(hs, func(i, j int) bool { return hs[i].Name < hs[j].Name })
	for _, f := range hs {
		item("header", []byte(f.Name))
		item("contents", f.Data)
	}
	for _, f := range append(append(Flags(), pathFlags()...), TargetFlags(t)...) {
		item("flag", []byte(f))
	}
	item("target", []byte(t.String()))
	for _, p := range parts {
		item("part", []byte(strings.Join(p, " ")))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// path returns the file of the entry key.
func (c *Cache) path(key string) string {
	return filepath.Join(c.dir, cacheVersion, key[:2], key)
}

// Get returns the data stored under key. A missing entry is a miss; one
// that is truncated or whose data does not match its hash is removed and is
// a miss too. A hit marks the entry as recently used.
func (c *Cache) Get(key string) ([]byte, bool) {
	p := c.path(key)
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	data, ok := decodeEntry(b)
	if !ok {
		os.Remove(p)
		return nil, false
	}
	now := time.Now()
	os.Chtimes(p, now, now) // best effort: trim may evict it a little early
	return data, true
}

// Put stores data under key: in a temporary file in the entry's directory,
// renamed into place, so that concurrent readers and writers (other
// goroutines, other go generate runs) see either the old entry or the new
// one, never part of one.
func (c *Cache) Put(key string, data []byte) error {
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("compile cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("compile cache: %w", err)
	}
	_, err = f.Write(encodeEntry(data))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), p)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("compile cache: %w", err)
	}
	return nil
}

// entryMagic starts every entry's header line.
const entryMagic = "gocccl-cache " + cacheVersion + " "

// encodeEntry returns the header line followed by data.
func encodeEntry(data []byte) []byte {
	header := entryMagic + sha256Hex(data) + " " + strconv.Itoa(len(data)) + "\n"
	return append([]byte(header), data...)
}

// decodeEntry returns the data of an entry whose header matches it.
func decodeEntry(b []byte) ([]byte, bool) {
	line, data, ok := bytes.Cut(b, []byte("\n"))
	if !ok || !bytes.HasPrefix(line, []byte(entryMagic)) {
		return nil, false
	}
	sum, size, ok := strings.Cut(string(line[len(entryMagic):]), " ")
	if !ok || size != strconv.Itoa(len(data)) || sum != sha256Hex(data) {
		return nil, false
	}
	return data, true
}

// cacheEntry is one file of the cache, for trimming.
type cacheEntry struct {
	path  string
	size  int64
	mtime time.Time
}

// Trim removes the least recently used entries (oldest modification time
// first) until the cache holds at most its size limit, and temporary files
// that a crashed writer left behind. Entries that vanish meanwhile (another
// process trims too) are skipped.
func (c *Cache) Trim() error {
	var entries []cacheEntry
	var total int64
	root := filepath.Join(c.dir, cacheVersion)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil // removed meanwhile
		}
		if strings.HasPrefix(d.Name(), ".tmp-") {
			if time.Since(info.ModTime()) > staleTemp {
				os.Remove(path)
			}
			return nil
		}
		entries = append(entries, cacheEntry{path: path, size: info.Size(), mtime: info.ModTime()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return fmt.Errorf("compile cache: trim: %w", err)
	}
	if total <= c.max {
		return nil
	}
	sort.Slice(entries, func(i, j int) bool {
		if !entries[i].mtime.Equal(entries[j].mtime) {
			return entries[i].mtime.Before(entries[j].mtime)
		}
		return entries[i].path < entries[j].path
	})
	for _, e := range entries {
		if total <= c.max {
			break
		}
		if err := os.Remove(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("compile cache: trim: %w", err)
		}
		total -= e.size
	}
	return nil
}

// compileCached returns the artifact of every target: from the cache c
// where it holds one, else compiled by tc (in parallel, as compile does) and
// then stored. A nil c compiles everything. It also returns the targets that
// came from the cache. Failures to store or trim are not errors: the cache
// only saves time.
func compileCached(ctx context.Context, c *Cache, tc *Toolchain, src *cudaFile, headers []File, targets []Target, parts [][]string, jobs int) (map[Target]*artifact, []Target, error) {
	if c == nil {
		images, err := tc.compile(ctx, src, headers, targets, parts, jobs)
		return images, nil, err
	}
	images := make(map[Target]*artifact, len(targets))
	keys := make(map[Target]string, len(targets))
	var hits, todo []Target
	for _, t := range targets {
		keys[t] = cacheKey(tc, src.src, headers, t, parts)
		if b, ok := c.Get(keys[t]); ok {
			if a, err := decodeArtifact(b); err == nil && len(a.parts) == max(1, len(parts)) {
				images[t] = a
				hits = append(hits, t)
				continue
			}
		}
		todo = append(todo, t)
	}
	if len(todo) == 0 {
		return images, hits, nil
	}
	built, err := tc.compile(ctx, src, headers, todo, parts, jobs)
	if err != nil {
		return nil, nil, err
	}
	for _, t := range todo {
		images[t] = built[t]
		c.Put(keys[t], encodeArtifact(built[t]))
	}
	c.Trim()
	return images, hits, nil
}
