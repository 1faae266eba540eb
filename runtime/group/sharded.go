package group

import (
	"encoding/binary"
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

// newSharded returns a sequence over g without shards, for an algorithm's
// ranks to fill (each its own shard, and exchangeLens the offsets).
func newSharded[T any](g *Group) *Sharded[T] {
	return &Sharded[T]{g: g, shards: make([]*runtime.Slice[T], g.Size()), offs: make([]int, g.Size()+1)}
}

// exchangeLens all-gathers every rank's shard length n; the lowest rank of
// this process writes the offsets into each of offs (every rank computes
// the same ones).
func exchangeLens(g *Group, r, n int, offs ...[]int) error {
	all, err := g.comm.allGather(r, binary.LittleEndian.AppendUint64(nil, uint64(n)))
	if err != nil {
		return err
	}
	if r != g.lead() {
		return nil
	}
	for q, b := range all {
		if len(b) != 8 {
			return fmt.Errorf("gocccl: group: rank %d sent %d bytes for a length", q, len(b))
		}
		for _, o := range offs {
			o[q+1] = o[q] + int(binary.LittleEndian.Uint64(b))
		}
	}
	return nil
}

// Alloc returns a sharded sequence of uninitialized shards of the given
// lengths, one per rank (in a group of Join, every process passes every
// rank's length and allocates its own shard).
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
	for _, r := range g.local {
		sl, err := runtime.Alloc[T](g.devs[r], lens[r])
		if err != nil {
			return nil, errors.Join(fmt.Errorf("gocccl: group.Alloc: shard %d: %w", r, err), s.Free())
		}
		s.shards[r] = sl
	}
	return s, nil
}

// Scatter copies host into a new sharded sequence split as Split does. In a
// group of Join every process passes the whole sequence and keeps its
// rank's part; ScatterPart takes only the part.
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

// ScatterPart copies part into a new sharded sequence as this process's
// shard, in a group of Join (one rank per process): every process passes
// its own part, of any length, and the lengths are exchanged. The sequence
// is the parts in rank order.
func ScatterPart[T any](g *Group, part []T) (*Sharded[T], error) {
	if len(g.local) != 1 {
		return nil, fmt.Errorf("gocccl: group.ScatterPart: this process holds %d ranks of the group; ScatterPart is for groups of Join, one rank a process (use Scatter)", len(g.local))
	}
	s := newSharded[T](g)
	err := g.each(func(r int) error {
		sl, err := runtime.Alloc[T](g.devs[r], len(part))
		if err != nil {
			return err
		}
		s.shards[r] = sl
		if err := sl.CopyFromHost(part); err != nil {
			return err
		}
		return exchangeLens(g, r, len(part), s.offs)
	})
	if err != nil {
		return nil, errors.Join(fmt.Errorf("gocccl: group.ScatterPart: %w", err), s.Free())
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
// enqueued on the shards' default streams. In a group of Join every process
// gets the whole sequence: the shards are all-gathered through the
// communicator.
func (s *Sharded[T]) Gather() ([]T, error) {
	host := make([]T, s.Len())
	g := s.g
	err := g.each(func(r int) error {
		mine := host[s.offs[r]:s.offs[r+1]]
		if err := s.shards[r].CopyToHost(mine); err != nil {
			return err
		}
		if len(g.local) == g.Size() {
			return nil
		}
		all, err := g.comm.allGather(r, bytesOf(mine))
		if err != nil {
			return err
		}
		for q, b := range all {
			if want := len(bytesOf(host[s.offs[q]:s.offs[q+1]])); len(b) != want {
				return fmt.Errorf("gocccl: group: rank %d sent %d bytes of its shard, want %d", q, len(b), want)
			}
			if q != r {
				copy(bytesOf(host[s.offs[q]:s.offs[q+1]]), b)
			}
		}
		return nil
	})
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
