from actors import Scorer
