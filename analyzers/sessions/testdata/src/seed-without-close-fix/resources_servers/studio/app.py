import shutil
import tempfile

from fastapi import Request
from nemo_gym import base_resources_server as brs


# A directory per session that verify removes: the close pops it, with a
# TODO to remove it first. The file imports the framework's module by a
# from-import: the new names get a from-import of their own.
class Studio(brs.SimpleResourcesServer):  # want "GL302 Studio keeps per-session state in seed_session"
    async def seed_session(self, request: Request, body: brs.ResourcesSeedSessionRequest):
        self.dirs.setdefault(body.resources_session_id, tempfile.mkdtemp())
        return None

    async def verify(self, request: Request, body):
        workdir = self.dirs.pop(request.session["session_id"], None)
        if workdir is None:
            return body.model_dump() | brs.lost_session_verification("workspace gone")
        shutil.rmtree(workdir, ignore_errors=True)
        return {"reward": 1.0}


if __name__ == "__main__":
    Studio.run_webserver()
