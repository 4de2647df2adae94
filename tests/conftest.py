import sys
from pathlib import Path

# helpers.py sits beside the tests; the package under test comes from the installed distribution.
sys.path.insert(0, str(Path(__file__).parent))
