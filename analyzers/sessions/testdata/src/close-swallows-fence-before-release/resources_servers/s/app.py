from fastapi import Request
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Pods(SimpleResourcesServer):
    def model_post_init(self, context):
        self.pods = {}
        self._fences = ResourcesSessionFences(60)

    async def seed_session(self, request: Request, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.pods[body.resources_session_id] = object()

    async def close_resources_session(self, body):
        sid = body.resources_session_id
        pod = self.pods.pop(sid, None)
        self._fences.fence(sid, body.episode_id)  # want `GL304 Pods.close_resources_session fences the session \(self._fences.fence\(...\)\) before it releases the session's state \(pod.terminate\(...\), line 19\) help: fence the session only after pod.terminate\(...\) succeeded$`
        if pod is not None:
            await pod.terminate()  # related "the release that may fail"


if __name__ == "__main__":
    Pods.run_webserver()
