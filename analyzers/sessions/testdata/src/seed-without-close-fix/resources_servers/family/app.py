from resources_servers.family.base import Puzzle


class Sudoku(Puzzle):
    def make(self, body):
        return [[0] * 9 for _ in range(9)]


if __name__ == "__main__":
    Sudoku.run_webserver()
