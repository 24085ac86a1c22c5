"""Services: the live rooms and the action path (rooms), history and replay (matches)."""
