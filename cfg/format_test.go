package cfg

import "testing"

// formatWrites finds the %n conversions (flags, width, precision, length
// and positions between % and n) and nothing else.
func TestFormatWrites(t *testing.T) {
	for f, want := range map[string]bool{
		"%n": true, "ab%5n": true, "%ln": true, "%hhn": true, "%1$n": true, "%d %n": true,
		"%%n": false, "%d": false, "n": false, "%": false, "%s%%": false, "100%%": false,
	} {
		if got := formatWrites(f); got != want {
			t.Errorf("formatWrites(%q) = %v, want %v", f, got, want)
		}
	}
}
