package cmdutil

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lessons-dev/lessons/cmd/lessons-cli/internal/iostreams"
)

// Prompter asks questions on the error output and reads one line per
// answer from the input.
type Prompter struct {
	ios *iostreams.IOStreams
	in  *bufio.Reader
}

// NewPrompter returns a prompter on ios.
func NewPrompter(ios *iostreams.IOStreams) *Prompter {
	return &Prompter{ios: ios, in: bufio.NewReader(ios.In)}
}

// Ask prints question and returns the trimmed answer, asking again while
// check rejects it (check may be nil). The end of the input is an error.
func (p *Prompter) Ask(question string, check func(string) error) (string, error) {
	for {
		fmt.Fprintf(p.ios.ErrOut, "? %s: ", question)
		line, err := p.in.ReadString('\n')
		answer := strings.TrimSpace(line)
		if err != nil && (answer == "" || !errors.Is(err, io.EOF)) {
			if errors.Is(err, io.EOF) {
				return "", errors.New("input ended before every question was answered")
			}
			return "", err
		}
		if check == nil {
			return answer, nil
		}
		if cerr := check(answer); cerr != nil {
			fmt.Fprintf(p.ios.ErrOut, "  %v\n", cerr)
			if err != nil {
				return "", cerr
			}
			continue
		}
		return answer, nil
	}
}
