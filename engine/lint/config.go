package lint

import "github.com/celint/celint/engine/config"

// LoadConfig reads the config file: the one at file, or, when file is "",
// the nearest one from the folder dir up (config.Find). It returns nil
// when file is "" and there is none.
func LoadConfig(file, dir string) (*config.Config, error) {
	if file == "" {
		found, err := config.Find(dir)
		if err != nil || found == "" {
			return nil, err
		}
		file = found
	}
	return config.Load(file)
}
