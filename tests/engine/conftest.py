import sys
from pathlib import Path

# the seeded game scripts (engine_play.py) are shared by the engine tests and the SIGKILL child
sys.path.insert(0, str(Path(__file__).parent))
