package scanner

import "testing"

// TestOpencodePatchIsAnEdit: opencode's apply_patch passes its patch as
// patchText; the call is an edit of the patch's file, as Codex's is.
// Before, it was an apply_patch call of no file, so an edit made with it
// did not count as a change of the session (a failure after it read as
// one before any change) nor as the edit that got past a failure.
func TestOpencodePatchIsAnEdit(t *testing.T) {
	c := newCall("apply_patch", []byte(`{"patchText":"*** Begin Patch\n*** Update File: /p/notes.md\n@@\n-old\n+new line\n*** End Patch"}`))
	if c.Tool != "Edit" || c.Path != "/p/notes.md" || c.Input != "new line" {
		t.Errorf("call %+v: want an Edit of /p/notes.md adding \"new line\"", c)
	}
	add := newCall("apply_patch", []byte(`{"patchText":"*** Begin Patch\n*** Add File: /p/b.txt\n+hi\n*** End Patch"}`))
	if add.Tool != "Write" || add.Path != "/p/b.txt" {
		t.Errorf("call %+v: want a Write of /p/b.txt", add)
	}
}
