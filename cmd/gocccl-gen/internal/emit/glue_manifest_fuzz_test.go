package emit

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// FuzzReadManifest reads arbitrary bytes as a manifest file. ReadManifest
// must never panic; when it succeeds, the manifest that Marshal writes back
// must read again as the same value, so that a manifest the generator wrote
// from one it read is never unreadable or different.
func FuzzReadManifest(f *testing.F) {
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, ManifestFile)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := ReadManifest(path)
		if err != nil {
			return
		}
		b, err := m.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a manifest ReadManifest accepted: %v", err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		again, err := ReadManifest(path)
		if err != nil {
			t.Fatalf("ReadManifest of the manifest Marshal wrote: %v\n%s", err, b)
		}
		if !reflect.DeepEqual(m, again) {
			t.Fatalf("manifest changed in a round trip:\nread    %#v\nwritten %s\nread as %#v", m, b, again)
		}
	})
}
