X = 1

if __name__ == "__main__":
    import ray
    ray.init()
