from nemo_gym.base_resources_server import ResourcesSessionLostError as ResourcesSessionLostError
SESSION_ID_KEY = "session_id"
