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


class S(Keeper):
    # Validates each state as it installs it.
    async def restore_session_states(self, states):
        for sid, state in states.items():  # want `GL319 S.restore_session_states installs states one by one \(self.games\[sid\]\) in a loop that can raise: a failing state leaves a partial set installed help: validate every state first \(into a local dict\), then install them all after the loop \(self.games.update\(validated\)\)$`
            self.games[sid] = Game.model_validate(state)  # related "this can raise after earlier states were installed"


class T(Keeper):
    # Installs, then checks: the raise comes after the write.
    async def restore_session_states(self, states):
        for sid in states:  # want `GL319 T.restore_session_states installs states one by one \(self.games\[sid\]\) in a loop`
            self.games[sid] = Game(**states[sid])
            if self.games[sid].moves < 0:
                raise ValueError("bad state")  # related "this can raise"


class U(Keeper):
    # Installs through a helper while a later check can raise.
    async def restore_session_states(self, states):
        for sid, state in states.items():  # want `GL319 U.restore_session_states installs states one by one \(self._install\(...\)\) in a loop that can raise`
            self._install(sid, state)
            self._check(state)  # related "this can raise"

    def _install(self, sid, state):
        self.games[sid] = state  # related "the state is installed here, in U._install"

    def _check(self, state):
        if not isinstance(state, dict):
            raise TypeError("state is not a mapping")


class V(T):
    pass
