package cmdutil

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads a Go duration, or a number of days as "7d".
func ParseSince(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days <= 0 {
			return 0, errors.New("want a positive number of days, as 7d")
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err == nil && d <= 0 {
		err = errors.New("want a positive duration")
	}
	return d, err
}
