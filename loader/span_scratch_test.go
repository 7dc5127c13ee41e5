package loader

import "testing"

func TestScratchSeeds(t *testing.T) {
	for seed := uint64(2); seed < 40; seed++ {
		checkGeneratedYAML(t, seed, 5000)
		if t.Failed() {
			return
		}
	}
}
