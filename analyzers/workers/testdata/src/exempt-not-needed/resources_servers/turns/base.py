import argparse


def helper():
    return 1


def main():
    parser = argparse.ArgumentParser(description="Print the helper's value.")
    parser.parse_args()
    print(helper())


if __name__ == "__main__":
    main()
