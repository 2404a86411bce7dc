import logging
from typing import Optional

from nemo_gym.base_resources_server import BaseResourcesServerConfig, SimpleResourcesServer

logger = logging.getLogger(__name__)


class LexiconConfig(BaseResourcesServerConfig):
    scoring: str = "rules"


class LexiconServer(SimpleResourcesServer):
    config: LexiconConfig

    def multiple_workers_unsupported_reason(self) -> Optional[str]:
        if self.config.scoring == "rules":
            return "Rule scoring draws every row from one random stream shared by the whole server."
        return None

    def model_post_init(self, context) -> None:
        logger.info("lexicon scoring: %s", self.config.scoring)
        self._seed = 7
        self._download_wordlists()

    def _download_wordlists(self) -> None:
        """Fetch the word lists into the cache (network)."""

    async def verify(self, request, body):
        return {"reward": 0.0}


if __name__ == "__main__":
    LexiconServer.run_webserver()
