"""Storage: the database models, the engine factory and the queries the services need."""
