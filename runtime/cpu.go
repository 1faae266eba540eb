package runtime

import (
	"fmt"
	"sync"
)

// minChunk is the fewest elements the CPU backend gives one goroutine.
const minChunk = 1 << 14

// parallel calls body(lo, hi) over [0, n) split into at most workers chunks,
// and turns a panic in the user's operator into an error.
func parallel(n, workers int, body func(chunk, lo, hi int)) (chunks int, err error) {
	if n <= 0 {
		return 0, nil
	}
	chunks = max(1, min(workers, (n+minChunk-1)/minChunk))
	size := (n + chunks - 1) / chunks
	chunks = (n + size - 1) / size // no empty chunk at the end
	var wg sync.WaitGroup
	var once sync.Once
	for c := 0; c < chunks; c++ {
		lo, hi := c*size, min(n, (c+1)*size)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					once.Do(func() { err = fmt.Errorf("gocccl: operator panicked on the CPU backend: %v", r) })
				}
			}()
			body(c, lo, hi)
		}()
	}
	wg.Wait()
	return chunks, err
}
