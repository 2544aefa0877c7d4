package scanner

import (
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows files, megabytes and candidates on a terminal, and
// nothing elsewhere.
type progress struct {
	bar   *progressbar.ProgressBar
	files int
	done  int
}

func newProgress(opts Options, total int64, files int) *progress {
	p := &progress{files: files}
	if opts.Progress == nil || !opts.IsTerminal || files == 0 {
		return p
	}
	p.bar = progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(opts.Progress),
		progressbar.OptionShowBytes(true),
		progressbar.OptionSetDescription("scanning"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionClearOnFinish(),
	)
	return p
}

func (p *progress) step(bytes int64, found int) {
	p.done++
	if p.bar == nil {
		return
	}
	p.bar.Describe(fmtProgress(p.done, p.files, found))
	_ = p.bar.Add64(bytes)
}

func (p *progress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

func fmtProgress(done, files, found int) string {
	return fmt.Sprintf("files %d/%d, candidates %d", done, files, found)
}
