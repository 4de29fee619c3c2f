package text

import "math"

// Near-duplicate detection: MinHash over word shingles, written here
// rather than taken from a library because it is a few dozen lines whose
// every choice (shingle size, hash, banding) must be stable across runs,
// and the Go MinHash packages found are unmaintained or pull in far more.

const (
	// ShingleWords is the length of a shingle in words.
	ShingleWords = 5
	// SignatureSize is the number of MinHash values of a signature: the
	// estimate's standard error is at most 1/(2·√128) ≈ 0.044.
	SignatureSize = 128
	bands         = 32 // locality-sensitive hashing: 32 bands of 4 values
	rows          = SignatureSize / bands
	maxBucket     = 64 // candidates kept per band bucket (the earliest)
)

// Signature returns the MinHash signature of s's word 5-shingles (words
// lower-cased as ForEachWord gives them), or nil for a text without
// words. A text of fewer than 5 words is one shingle.
func Signature(s string) []uint64 {
	var words []uint64
	ForEachWord([]byte(s), func(w []byte) { words = append(words, fnv64(w)) })
	if len(words) == 0 {
		return nil
	}
	sig := make([]uint64, SignatureSize)
	for i := range sig {
		sig[i] = math.MaxUint64
	}
	n := max(len(words)-ShingleWords+1, 1)
	for i := range n {
		h := uint64(0x9e3779b97f4a7c15)
		for _, w := range words[i:min(i+ShingleWords, len(words))] {
			h = mix(h ^ w)
		}
		for j := range sig {
			if v := mix(h + uint64(j)*0xbf58476d1ce4e5b9); v < sig[j] {
				sig[j] = v
			}
		}
	}
	return sig
}

// Similarity estimates the Jaccard similarity of the shingle sets two
// signatures stand for: the share of equal values.
func Similarity(a, b []uint64) float64 {
	if len(a) != SignatureSize || len(b) != SignatureSize {
		return 0
	}
	same := 0
	for i := range a {
		if a[i] == b[i] {
			same++
		}
	}
	return float64(same) / SignatureSize
}

// NearDuplicates finds, for each signature, the earlier one most similar
// to it among those whose estimated Jaccard reaches threshold (the
// earliest on a tie): of[i] is its index, or -1, and sim[i] the estimate.
// Candidates come from banding (32 bands of 4 values), which finds a pair
// at Jaccard 0.9 with probability above 0.999 999, and 0.7 above 0.999.
func NearDuplicates(sigs [][]uint64, threshold float64) (of []int, sim []float64) {
	of, sim = make([]int, len(sigs)), make([]float64, len(sigs))
	buckets := make([]map[uint64][]int, bands)
	for b := range buckets {
		buckets[b] = map[uint64][]int{}
	}
	for i, s := range sigs {
		of[i] = -1
		if s == nil {
			continue
		}
		seen := map[int]bool{}
		for b := range bands {
			key := uint64(0)
			for _, v := range s[b*rows : (b+1)*rows] {
				key = mix(key ^ v)
			}
			for _, j := range buckets[b][key] {
				if seen[j] {
					continue
				}
				seen[j] = true
				if e := Similarity(s, sigs[j]); e >= threshold && (e > sim[i] || (e == sim[i] && j < of[i])) {
					of[i], sim[i] = j, e
				}
			}
			if len(buckets[b][key]) < maxBucket {
				buckets[b][key] = append(buckets[b][key], i)
			}
		}
	}
	return of, sim
}

// mix is SplitMix64's finaliser: a fixed, well-distributed 64-bit mix.
func mix(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// fnv64 is FNV-1a of a word.
func fnv64(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
