package group

import (
	"errors"
	"fmt"

	"github.com/gocccl/gocccl/runtime"
)

// Sharded is a sequence of n elements split over a group's devices: shard r
// (a Slice on device r) holds elements [Offset(r), Offset(r)+Shard(r).Len()).
type Sharded[T any] struct {
	g      *Group
	shards []*runtime.Slice[T]
	offs   []int // offs[r] is shard r's first element; offs[g.Size()] is n
	// roots, when set, are the allocations the shards are views of, which
	// Free frees; viewOf, when set, names the sequence whose memory the
	// shards are views of, which must be freed instead.
	roots  []*runtime.Slice[T]
	viewOf string
}

// Split returns the lengths of n elements split over size shards as evenly
// as possible: the first n mod size shards hold one element more.
func Split(n, size int) []int {
	lens := make([]int, size)
	for r := range lens {
		lens[r] = n / size
		if r < n%size {
			lens[r]++
		}
	}
	return lens
}

// Alloc returns a sharded sequence of uninitialized shards of the given
// lengths, one per rank.
func Alloc[T any](g *Group, lens []int) (*Sharded[T], error) {
	if len(lens) != g.Size() {
		return nil, fmt.Errorf("gocccl: group.Alloc: %d shard lengths for a group of %d", len(lens), g.Size())
	}
	s := &Sharded[T]{g: g, shards: make([]*runtime.Slice[T], g.Size()), offs: make([]int, g.Size()+1)}
	for r, n := range lens {
		if n < 0 {
			return nil, fmt.Errorf("gocccl: group.Alloc: shard %d has negative length %d", r, n)
		}
		s.offs[r+1] = s.offs[r] + n
	}
	for r, n := range lens {
		sl, err := runtime.Alloc[T](g.devs[r], n)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("gocccl: group.Alloc: shard %d: %w", r, err), s.Free())
		}
		s.shards[r] = sl
	}
	return s, nil
}

// Scatter copies host into a new sharded sequence split as Split does.
func Scatter[T any](g *Group, host []T) (*Sharded[T], error) {
	s, err := Alloc[T](g, Split(len(host), g.Size()))
	if err != nil {
		return nil, err
	}
	if err := g.each(func(r int) error { return s.shards[r].CopyFromHost(host[s.offs[r]:s.offs[r+1]]) }); err != nil {
		return nil, errors.Join(fmt.Errorf("gocccl: group.Scatter: %w", err), s.Free())
	}
	return s, nil
}

// Like returns a new sharded sequence with the shard lengths of s.
func Like[T, U any](s *Sharded[U]) (*Sharded[T], error) {
	return Alloc[T](s.g, s.Lens())
}

// Group returns the group s is sharded over.
func (s *Sharded[T]) Group() *Group { return s.g }

// Len returns the number of elements of all shards.
func (s *Sharded[T]) Len() int { return s.offs[len(s.offs)-1] }

// Lens returns every shard's length, in rank order.
func (s *Sharded[T]) Lens() []int {
	lens := make([]int, len(s.shards))
	for r := range lens {
		lens[r] = s.offs[r+1] - s.offs[r]
	}
	return lens
}

// Shard returns rank r's Slice.
func (s *Sharded[T]) Shard(r int) *runtime.Slice[T] { return s.shards[r] }

// Offset returns the index of shard r's first element in the sequence.
func (s *Sharded[T]) Offset(r int) int { return s.offs[r] }

// Gather copies every shard to the host, in rank order, after the work
// enqueued on the shards' default streams.
func (s *Sharded[T]) Gather() ([]T, error) {
	host := make([]T, s.Len())
	err := s.g.each(func(r int) error { return s.shards[r].CopyToHost(host[s.offs[r]:s.offs[r+1]]) })
	if err != nil {
		return nil, fmt.Errorf("gocccl: group.Gather: %w", err)
	}
	return host, nil
}

// Free frees every shard; the errors of all that failed, joined.
func (s *Sharded[T]) Free() error {
	if s.viewOf != "" {
		return fmt.Errorf("gocccl: group: Free: these shards are views of the %s; free it instead", s.viewOf)
	}
	shards := s.shards
	if s.roots != nil {
		shards = s.roots
	}
	var errs []error
	for r, sl := range shards {
		if sl == nil {
			continue
		}
		if err := sl.Free(); err != nil {
			errs = append(errs, fmt.Errorf("shard %d: %w", r, err))
		}
		shards[r] = nil
	}
	return errors.Join(errs...)
}

// sameShards returns an error unless a and b are sharded alike over one
// group.
func sameShards[A, B any](alg string, a *Sharded[A], b *Sharded[B]) error {
	if a.g != b.g {
		return fmt.Errorf("gocccl: group.%s: the input and the output are sharded over different groups", alg)
	}
	for r := range a.shards {
		if a.offs[r+1]-a.offs[r] != b.offs[r+1]-b.offs[r] {
			return fmt.Errorf("gocccl: group.%s: shard %d of the output has %d elements, the input's %d", alg, r, b.offs[r+1]-b.offs[r], a.offs[r+1]-a.offs[r])
		}
	}
	return nil
}
