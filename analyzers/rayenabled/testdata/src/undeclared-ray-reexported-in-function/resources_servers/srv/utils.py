import ray
