def sorted(rows):
    """Not the builtin: it downloads the rows it sorts."""
    return download(rows)
