import unicodedata


def normalize_guess(word: str) -> str:
    folded = unicodedata.normalize("NFKD", word).encode("ascii", "ignore").decode()
    return folded.strip().lower().replace("-", "")
