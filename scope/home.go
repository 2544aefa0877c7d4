package scope

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// homeDir is the user's home directory: $HOME when it is absolute, else
// the home of the user's id in the passwd file. An agent may run its
// hooks with a cleared environment, and an empty or relative home put
// the cache and the session state (manifests, claims, the event log)
// in the working directory, the user's repository.
func homeDir(getenv func(string) string, passwd string) string {
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return h
	}
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) { // Windows: %USERPROFILE%
		return h
	}
	return passwdHome(passwd, os.Getuid())
}

// maxPasswd caps what passwdHome reads.
const maxPasswd = 4 << 20

// passwdHome is the absolute home directory of uid in the passwd file at
// path (name:password:uid:gid:gecos:home:shell lines), or "".
func passwdHome(path string, uid int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := bufio.NewScanner(io.LimitReader(f, maxPasswd))
	want := strconv.Itoa(uid)
	for s.Scan() {
		fields := strings.Split(s.Text(), ":")
		if len(fields) >= 6 && fields[2] == want && filepath.IsAbs(fields[5]) {
			return fields[5]
		}
	}
	return ""
}
