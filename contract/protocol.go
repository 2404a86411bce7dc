package contract

import "github.com/gymlint/gymlint/pyscan"

// ProtocolRoutes: the resources base defines register_protocol_routes, the
// hook through which a server with another episode protocol adds its
// routes to the app the framework builds (create_resources_app).
const ProtocolRoutes Fact = "protocol-routes"

func init() {
	defNames = append(defNames, RegisterProtocolRoutesMethod)
	Facts = append(Facts, Info{ProtocolRoutes, "the resources base defines register_protocol_routes", "the protocol routes hook", "SimpleResourcesServer has no register_protocol_routes"})
}

// readProtocolFacts sets ProtocolRoutes from a resources base class (by
// name, in any module) that defines register_protocol_routes.
func readProtocolFacts(set func(Fact, *pyscan.Module, pyscan.Span), mods []*pyscan.Module) {
	for _, m := range mods {
		for _, c := range m.Classes {
			if !in(c.Name, ResourcesBases) {
				continue
			}
			if fn := c.Method(RegisterProtocolRoutesMethod); fn != nil {
				set(ProtocolRoutes, m, fn.NameSpan)
			}
		}
	}
}
