"""The rules (the shared core and every game's) are plain standard-library Python: importing them pulls in no I/O packages."""

import subprocess
import sys

BLOCKED = ["cv2", "numpy", "gpiozero", "picamera2", "starlette", "uvicorn", "sqlite3", "lgpio"]

PROBE = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in {BLOCKED!r}:
            raise ImportError('blocked for the purity test: ' + name)
sys.meta_path.insert(0, Block())
import importlib, pkgutil
import rig.rules, rig.rules.fairness
from rig import registry
for game in registry.games():
    rules = importlib.import_module(game.rules)
    for sub in pkgutil.iter_modules(getattr(rules, "__path__", [])):  # a game's rules package: every module
        importlib.import_module(rules.__name__ + "." + sub.name)
loaded = sorted(m for m in sys.modules if m.split('.')[0] in {BLOCKED!r})
print('LOADED', loaded)
"""


def test_rules_import_with_io_packages_blocked():
    result = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "LOADED []" in result.stdout
