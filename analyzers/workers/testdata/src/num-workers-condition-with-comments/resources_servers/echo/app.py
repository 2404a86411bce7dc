from nemo_gym.base_resources_server import SimpleResourcesServer


class EchoServer(SimpleResourcesServer):
    def multiple_workers_unsupported_reason(self) -> str | None:  # related `^EchoServer.multiple_workers_unsupported_reason\(\) returns a reason when self.config.metrics_source == "prometheus" or self.config.metrics_source == 'statsd': "The window starts from a metrics snapshot in memory."$`
        if (
            self.config.metrics_source == "prometheus"  # the snapshot
            or self.config.metrics_source == 'statsd'  # the same test in another spelling below
        ):
            return "The window starts from a metrics snapshot in memory."
        if self.config.metrics_source == "statsd":
            return None
        return None


if __name__ == "__main__":
    EchoServer.run_webserver()
