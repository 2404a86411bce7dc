from pydantic import BaseModel
from nemo_gym.base_resources_server import ResourcesSessionFences, SimpleResourcesServer


class Game(BaseModel):
    moves: int = 0


class Keeper(SimpleResourcesServer):
    async def seed_session(self, body):
        self._fences.raise_if_fenced(body.resources_session_id)
        self.games[body.resources_session_id] = Game()
        return None

    async def close_resources_session(self, body):
        self.games.pop(body.resources_session_id, None)
        self._fences.fence(body.resources_session_id, None)
        return None

    async def retire_session_state(self, session_id):
        self.games.pop(session_id, None)

    async def export_session_states(self, session_ids):
        return {i: self.games[i].model_dump() for i in session_ids if i in self.games}


class TwoLoops(Keeper):
    # Validates all, then installs all.
    async def restore_session_states(self, states):
        validated = {}
        for sid, state in states.items():
            validated[sid] = Game.model_validate(state)
        for sid, game in validated.items():
            self.games[sid] = game


class Comprehension(Keeper):
    async def restore_session_states(self, states):
        games = {sid: Game.model_validate(s) for sid, s in states.items()}
        self.games.update(games)


class NoRaise(Keeper):
    # A loop that installs but cannot raise.
    async def restore_session_states(self, states):
        for sid, state in states.items():
            self.games[sid] = state


class Helper(Keeper):
    # Validates in the loop, installs through a helper after it.
    async def restore_session_states(self, states):
        checked = []
        for sid, state in states.items():
            checked.append((sid, Game.model_validate(state)))
        self._install_all(checked)

    def _install_all(self, checked):
        for sid, game in checked:
            self.games[sid] = game


class Caught(Keeper):
    # A state that fails validation is skipped, not raised.
    async def restore_session_states(self, states):
        for sid, state in states.items():
            try:
                self.games[sid] = Game.model_validate(state)
            except ValueError:
                continue


class Unknown(Keeper):
    # A validate method gymlint cannot read does not count as raising.
    async def restore_session_states(self, states):
        for sid, state in states.items():
            self.games[sid] = state
            self.schema.validate(state)
