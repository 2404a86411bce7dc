def broken(:  # want "GL001 syntax error"
