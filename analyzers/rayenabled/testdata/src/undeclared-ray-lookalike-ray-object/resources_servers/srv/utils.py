ray = object()
