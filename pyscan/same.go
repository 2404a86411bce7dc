package pyscan

import "sort"

// SameCode reports whether the Python source new is old with comments
// added or changed only: both parse without a syntax error, their
// statements are Equal (spans, white space and comments aside: so a
// comment that lands inside a string, which changes its value, or after
// a backslash continuation, which is a syntax error, is told), and each
// offset of comments (in new) lies inside one of new's comments.
// gymlint --add-noqa asks it whether the suppressions it writes stayed
// comments.
func (p *Parser) SameCode(path string, old, new []byte, comments []int) bool {
	a := p.Parse(path, old)
	if a.SyntaxError != nil {
		return false
	}
	b := p.Parse(path, new)
	if b.SyntaxError != nil || len(a.Body) != len(b.Body) {
		return false
	}
	for i := range a.Body {
		if !Equal(a.Body[i], b.Body[i]) {
			return false
		}
	}
	for _, c := range comments {
		i := sort.Search(len(b.Comments), func(i int) bool { return int(b.Comments[i].End) > c })
		if i == len(b.Comments) || int(b.Comments[i].Start) > c {
			return false
		}
	}
	return true
}
