def serve(cls):
    cls.run_webserver()
    return cls
