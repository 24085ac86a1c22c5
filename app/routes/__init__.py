"""HTTP and websocket routes: thin, one APIRouter per module."""
