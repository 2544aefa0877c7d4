package agents

// InstalledAt reports whether the agent's settings (or plugin file) at
// path run lessons.
func (a *Agent) InstalledAt(path string) bool {
	data, existed, err := readFile(path)
	if !existed || err != nil {
		return false
	}
	if a.Plugin {
		return IsOurPlugin(data)
	}
	events, _, err := a.Installed(data)
	return err == nil && len(events) > 0
}

// Twice finds an agent that runs lessons both from the user's settings and
// from the project's around cwd: it would run every hook twice and inject
// everything twice. It returns the two paths, or "".
func (a *Agent) Twice(env Env, cwd string) (user, project string) {
	root := ProjectRoot(cwd)
	if root == "" {
		return "", ""
	}
	user, project = a.Path(env, ""), a.Path(env, root)
	if user == project || !a.InstalledAt(user) || !a.InstalledAt(project) {
		return "", ""
	}
	return user, project
}
