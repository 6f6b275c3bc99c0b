import sys

from rig.cli import main

sys.exit(main())
