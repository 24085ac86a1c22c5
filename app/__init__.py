"""Kartenrunde's web server: routes → services → storage, with the engine as the rules."""
