package mdfence

import "testing"

func TestBlocks(t *testing.T) {
	text := "# t\n\n```sh doctest exit=1\ngymlint x\n```\n```text\na\nb\n```\n```\nunclosed\n"
	bs := Blocks(text)
	if len(bs) != 2 || bs[0].Info != "sh doctest exit=1" || bs[0].Line != 3 || bs[0].Text() != "gymlint x\n" ||
		bs[1].Info != "text" || bs[1].Text() != "a\nb\n" {
		t.Errorf("Blocks = %+v", bs)
	}
	if (Block{}).Text() != "" {
		t.Error("an empty block's text")
	}
}
