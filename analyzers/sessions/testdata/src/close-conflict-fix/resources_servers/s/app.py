from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Jobs(SimpleResourcesServer):
    def model_post_init(self, context):
        self.jobs = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.jobs[body.resources_session_id] = {"episode": body.episode_id}

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        job = self.jobs.get(sid)
        if job is not None and job["episode"] != body.episode_id:
            raise RuntimeError(f"job {sid} belongs to episode {job['episode']}")  # want `GL311 Jobs.close_resources_session raises RuntimeError`
        self.jobs.pop(sid, None)
        self._fences.fence(sid, body.episode_id)


class Tasks(SimpleResourcesServer):
    def model_post_init(self, context):
        self.tasks = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.tasks[body.resources_session_id] = {"episode": body.episode_id}

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        task = self.tasks.get(sid)
        if task is not None and task["episode"] != body.episode_id:
            raise ValueError("another episode", sid)  # want `GL311 Tasks.close_resources_session raises ValueError`
        self.tasks.pop(sid, None)
        self._fences.fence(sid, body.episode_id)
