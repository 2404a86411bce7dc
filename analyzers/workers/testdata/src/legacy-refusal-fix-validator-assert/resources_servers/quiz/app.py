from pydantic import validator
from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer

class QuizConfig(BaseResourcesServerConfig):
	@validator("num_workers")
	def one_worker(cls, value):
		assert value in (None, 1), "one worker: the quiz state is in memory"  # want "GL103 .*a validator of num_workers"
		return value


class QuizServer(SimpleResourcesServer):  # want "GL101 server class QuizServer has neither"
	config: QuizConfig

	async def verify(self, body):
		return body
